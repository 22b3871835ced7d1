// What the dashboard's script and every service's panel (a `ui/` file of its folder, declared in its backstage's
// `panels`) draw with: DOM building (text always set as text, never parsed as markup), the control routes' fetch,
// buttons that act, and the notice line. Served at /_emulate/ui/panel-kit.js.

/** The control routes' prefix. */
export const BASE = '/_emulate/platform';

/** Builds an element: `el('td', {className: 'x'}, 'text', child)`; strings become text nodes. */
export function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key in node && key !== 'ariaLabel') node[key] = value;
    else node.setAttribute(key === 'ariaLabel' ? 'aria-label' : key, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const chips = (items) => (items.length ? items.map((s) => el('span', { className: 'chip' }, s)) : el('span', { className: 'muted' }, 'any'));
export const empty = (text) => el('p', { className: 'empty' }, text);

export function table(headers, rows) {
  return el(
    'table',
    {},
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        headers.map((h) => el('th', { scope: 'col' }, h)),
      ),
    ),
    el('tbody', {}, rows),
  );
}

/** Replaces a panel's body, keeping keyboard focus on the same control when it is redrawn. */
export function show(id, content, count) {
  const body = document.getElementById(`${id}-body`);
  const focused = document.activeElement && body.contains(document.activeElement) ? document.activeElement.dataset.key : undefined;
  body.replaceChildren(content);
  if (count !== undefined) document.getElementById(`${id}-count`).textContent = `(${count})`;
  if (focused) body.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
}

let noticeTimer;
export function notice(text, isError = false) {
  const box = document.getElementById('notice');
  box.textContent = text;
  box.classList.toggle('error', isError);
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => (box.hidden = true), 6000);
}

export async function call(method, url, body) {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = { message: text };
  }
  if (!res.ok) throw new Error(json.errorDescription ?? json.error_description ?? json.message ?? `${res.status}`);
  return json;
}

/** Runs an action from a button; the panels refresh from the change event it causes. */
export async function act(button, label, run) {
  button.disabled = true;
  try {
    await run();
    notice(label);
  } catch (err) {
    notice(`${label} failed: ${err.message}`, true);
  } finally {
    button.disabled = false;
  }
}

/** A button that runs `run` (a control-route call), then says `done` in the notice line; `key` keeps focus on it across redraws. */
export function actionButton(text, { key, ariaLabel, done, run }) {
  return el('button', { type: 'button', dataset: { key }, ariaLabel, onclick: (e) => act(e.currentTarget, done, run) }, text);
}

export const since = (iso) => (iso ? new Date(iso).toLocaleTimeString() : '');
