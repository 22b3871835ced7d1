// The dashboard's script: reads the control routes, renders each panel with DOM calls (text is always set
// as text, never parsed as markup), and stays live from the server-sent event stream: a `change` event
// reloads the panels it names, a `journal` event adds a row to the journal.
const BASE = '/_emulate/platform';
const RUNTIMES = `${BASE}/compute-modules/runtimes`;
const JOURNAL_ROWS = 200;

/** Builds an element: `el('td', {className: 'x'}, 'text', child)`; strings become text nodes. */
function el(tag, props, ...children) {
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

const chips = (items) => (items.length ? items.map((s) => el('span', { className: 'chip' }, s)) : el('span', { className: 'muted' }, 'any'));
const empty = (text) => el('p', { className: 'empty' }, text);

function table(headers, rows) {
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
function show(id, content, count) {
  const body = document.getElementById(`${id}-body`);
  const focused = document.activeElement && body.contains(document.activeElement) ? document.activeElement.dataset.key : undefined;
  body.replaceChildren(content);
  if (count !== undefined) document.getElementById(`${id}-count`).textContent = `(${count})`;
  if (focused) body.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
}

let noticeTimer;
function notice(text, isError = false) {
  const box = document.getElementById('notice');
  box.textContent = text;
  box.classList.toggle('error', isError);
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => (box.hidden = true), 6000);
}

async function call(method, url, body) {
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
async function act(button, label, run) {
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

const since = (iso) => (iso ? new Date(iso).toLocaleTimeString() : '');

// ---- panels ----

async function loadUsers() {
  const { users } = await call('GET', `${BASE}/users`);
  const rows = users.map((u) =>
    el(
      'tr',
      {},
      el(
        'td',
        {},
        el('div', {}, u.displayName),
        el('div', { className: 'muted small' }, el('span', { className: 'mono' }, u.username), u.email ? ` · ${u.email}` : ''),
        u.principalType === 'service' ? el('div', { className: 'muted small' }, `service user${u.oauthClientId ? ` of client ${u.oauthClientId}` : ''}`) : null,
      ),
      el('td', {}, el('span', { className: `state ${u.active ? 'active' : 'inactive'}` }, u.active ? 'active' : 'deactivated')),
      el(
        'td',
        { className: 'act' },
        el(
          'button',
          {
            type: 'button',
            dataset: { key: `user:${u.username}` },
            ariaLabel: `${u.active ? 'Deactivate' : 'Activate'} ${u.username}`,
            onclick: (e) =>
              act(e.currentTarget, `${u.active ? 'Deactivated' : 'Activated'} ${u.username}`, () =>
                call('POST', `${BASE}/users/${encodeURIComponent(u.username)}/${u.active ? 'deactivate' : 'activate'}`),
              ),
          },
          u.active ? 'Deactivate' : 'Activate',
        ),
      ),
    ),
  );
  show('users', users.length ? table(['User', 'State', ''], rows) : empty('No users.'), users.length);
}

async function loadTokens() {
  const { tokens, total, truncated } = await call('GET', `${BASE}/tokens`);
  const rows = tokens.map((t) =>
    el(
      'tr',
      {},
      el('td', {}, el('div', {}, t.username ?? '(unknown)'), el('div', { className: 'muted small mono' }, t.id)),
      el('td', {}, t.clientId ?? el('span', { className: 'muted' }, 'control route')),
      el('td', {}, t.scopes.length ? chips(t.scopes) : el('span', { className: 'muted' }, 'none')),
      el('td', { title: t.expiresAt }, `${Math.ceil(t.expiresInSeconds / 60)} min`),
      el(
        'td',
        { className: 'act' },
        el(
          'button',
          {
            type: 'button',
            dataset: { key: `token:${t.id}` },
            ariaLabel: `Revoke token ${t.id} of ${t.username ?? 'unknown'}`,
            onclick: (e) => act(e.currentTarget, `Revoked token ${t.id}`, () => call('DELETE', `${BASE}/tokens/${t.id}`)),
          },
          'Revoke',
        ),
      ),
    ),
  );
  const note = truncated ? el('p', { className: 'muted small' }, `Showing the newest ${tokens.length} of ${total}.`) : null;
  show('tokens', tokens.length ? el('div', {}, table(['Whose', 'Client', 'Scopes', 'Expires in', ''], rows), note) : empty('No live tokens.'), tokens.length);
}

async function loadClients() {
  const { clients } = await call('GET', `${BASE}/clients`);
  const rows = clients.map((c) =>
    el(
      'tr',
      {},
      el('td', {}, el('div', {}, c.name), el('div', { className: 'muted small mono' }, c.clientId)),
      el('td', {}, c.type),
      el('td', {}, c.redirectUris.length ? c.redirectUris.map((u) => el('div', { className: 'mono wrap' }, u)) : el('span', { className: 'muted' }, 'none')),
      el('td', {}, chips(c.grantTypes)),
      el('td', {}, chips(c.allowedScopes)),
    ),
  );
  show(
    'clients',
    clients.length
      ? table(['Client', 'Type', 'Redirect URIs', 'Grants', 'Scopes'], rows)
      : empty('No clients: open mode, any client id is accepted as a public client.'),
    clients.length,
  );
}

async function loadConnections() {
  const { connections } = await call('GET', `${BASE}/connections`);
  const rows = connections.map((c) =>
    el(
      'tr',
      {},
      el('td', {}, el('div', {}, c.displayName), el('div', { className: 'muted small mono' }, c.rid)),
      el(
        'td',
        {},
        c.domains.map((d) =>
          el(
            'div',
            { className: 'mono wrap' },
            `${d.scheme ? `${d.scheme.toLowerCase()}://` : ''}${d.host}${d.port ? `:${d.port}` : ''}${d.auth ? ` (${d.auth})` : ''}`,
          ),
        ),
      ),
      el('td', {}, c.secretNames.length ? chips(c.secretNames) : el('span', { className: 'muted' }, 'none')),
    ),
  );
  show('connections', connections.length ? table(['Connection', 'Domains', 'Secret names'], rows) : empty('No connections.'), connections.length);
}

async function loadOntologies() {
  const { ontologies } = await call('GET', `${BASE}/ontologies`);
  const rows = ontologies.map((o) =>
    el(
      'tr',
      {},
      el(
        'td',
        {},
        el('div', {}, o.displayName),
        el('div', { className: 'muted small mono' }, o.apiName),
        el('div', { className: 'muted small mono wrap' }, o.rid),
      ),
      el(
        'td',
        {},
        o.queries.length
          ? o.queries.map((q) => el('span', { className: 'chip', title: `${q.resultBytes} bytes` }, q.apiName))
          : el('span', { className: 'muted' }, 'none'),
      ),
      el(
        'td',
        {},
        o.objectTypes?.length
          ? o.objectTypes.map((t) => el('span', { className: 'chip', title: t.displayName }, t.objects === null ? t.apiName : `${t.apiName} · ${t.objects}`))
          : el('span', { className: 'muted' }, 'none'),
      ),
      el('td', {}, o.actionTypes?.length ? chips(o.actionTypes) : el('span', { className: 'muted' }, 'none')),
    ),
  );
  show('ontologies', ontologies.length ? table(['Ontology', 'Queries', 'Object types', 'Action types'], rows) : empty('No ontologies.'), ontologies.length);
}

function jobRow(runtimeId, j) {
  const open = j.state === 'queued' || j.state === 'inProgress';
  const result = j.result
    ? el(
        'div',
        {},
        el(
          'span',
          { className: 'muted small' },
          `${j.result.bytes} bytes${j.result.contentType ? `, ${j.result.contentType}` : ''}, as ${j.result.preview.encoding}${j.result.preview.truncated ? ' (cut)' : ''}`,
        ),
        el('pre', {}, j.result.preview.text),
      )
    : j.failure
      ? el('div', { className: 'reason' }, j.failure)
      : null;
  return el(
    'tr',
    {},
    el('td', { className: 'mono small' }, j.id.slice(0, 8), el('div', { className: 'muted' }, since(j.submittedAt))),
    el('td', {}, el('div', { className: 'mono' }, j.queryType), el('pre', {}, j.query.text + (j.query.truncated ? '…' : ''))),
    el(
      'td',
      {},
      el('span', { className: `state ${j.state}` }, j.state),
      j.handOuts > 1 ? el('div', { className: 'muted small' }, `handed out ${j.handOuts}×`) : null,
    ),
    el('td', {}, result),
    el(
      'td',
      { className: 'act' },
      open
        ? el(
            'button',
            {
              type: 'button',
              dataset: { key: `job:${j.id}` },
              ariaLabel: `Cancel job ${j.id}`,
              onclick: (e) =>
                act(e.currentTarget, `Canceled job ${j.id.slice(0, 8)}`, () =>
                  call('DELETE', `${RUNTIMES}/${encodeURIComponent(runtimeId)}/jobs/${encodeURIComponent(j.id)}`),
                ),
            },
            'Cancel',
          )
        : null,
    ),
  );
}

async function loadRuntimes() {
  const { runtimes } = await call('GET', RUNTIMES);
  const blocks = runtimes.map((r) => {
    const functions = r.schemas.map((s) => s?.functionName ?? s?.name ?? JSON.stringify(s).slice(0, 40));
    return el(
      'div',
      { className: 'runtime' },
      el(
        'h3',
        {},
        el('span', { className: 'mono' }, r.runtimeId),
        ' ',
        el('span', { className: 'count' }, `${r.waitingPolls} waiting poll${r.waitingPolls === 1 ? '' : 's'}`),
      ),
      el(
        'p',
        { className: 'small' },
        el('span', { className: 'muted' }, 'Apps: '),
        r.deployedApps.length
          ? r.deployedApps.map((a) =>
              el(
                'span',
                { className: 'chip', title: a.active ? 'active' : 'inactive' },
                `${a.displayName ?? a.deployedAppRid}@${a.branch}${a.active ? '' : ' (inactive)'}`,
              ),
            )
          : 'none',
        el('br'),
        el('span', { className: 'muted' }, 'Functions: '),
        functions.length ? chips(functions) : el('span', { className: 'muted' }, 'no schemas posted'),
      ),
      r.jobs.length
        ? table(
            ['Job', 'Query', 'State', 'Result', ''],
            r.jobs.map((j) => jobRow(r.runtimeId, j)),
          )
        : empty('No jobs yet.'),
    );
  });
  show('runtimes', runtimes.length ? el('div', {}, blocks) : empty('No runtimes.'), runtimes.length);
}

// ---- journal ----

const journalRows = [];

function journalRow(e) {
  const who = [e.username, e.clientId && `client ${e.clientId}`].filter(Boolean).join(' · ');
  return el(
    'tr',
    { className: e.status >= 400 ? 'refusal' : '', dataset: { id: String(e.id) } },
    el('td', { className: 'mono small', title: e.time }, new Date(e.time).toLocaleTimeString()),
    el('td', { className: 'mono' }, e.method),
    el(
      'td',
      {},
      el('div', { className: 'mono wrap' }, e.path),
      e.originalPath ? el('div', { className: 'muted small mono wrap' }, `sent as ${e.originalPath}`) : null,
      e.reason ? el('div', { className: 'reason' }, e.errorCode ? `${e.errorCode}: ${e.reason}` : e.reason) : null,
    ),
    el('td', {}, el('span', { className: `state ${e.status >= 400 ? 'bad' : 'ok'}` }, String(e.status))),
    el('td', { className: 'small' }, who),
    el('td', { className: 'small muted' }, `${e.durationMs} ms`),
  );
}

function journalFilter(e) {
  if (document.getElementById('refusals-only').checked && e.status < 400) return false;
  const path = document.getElementById('journal-path').value.trim();
  return !path || e.path.startsWith(path);
}

function renderJournal() {
  const shown = journalRows.filter(journalFilter);
  show(
    'journal',
    shown.length ? table(['Time', 'Method', 'Path and reason', 'Status', 'Who', 'Took'], shown.map(journalRow)) : empty('Nothing recorded yet.'),
    shown.length,
  );
}

async function loadJournal() {
  const { entries } = await call('GET', `${BASE}/journal?limit=${JOURNAL_ROWS}`);
  journalRows.splice(0, journalRows.length, ...entries);
  renderJournal();
}

let journalFrame = 0;
function addJournalEntry(entry) {
  if (journalRows.some((e) => e.id === entry.id)) return;
  journalRows.unshift(entry);
  journalRows.length = Math.min(journalRows.length, JOURNAL_ROWS);
  // A burst of requests redraws the table once per frame, not once per entry.
  if (!journalFrame) journalFrame = window.requestAnimationFrame(() => ((journalFrame = 0), renderJournal()));
}

async function loadClock() {
  const { now } = await call('GET', `${BASE}/clock`);
  const node = document.getElementById('clock-now');
  node.dateTime = now;
  node.textContent = new Date(now).toLocaleString();
}

// ---- live ----

const LOADERS = {
  users: loadUsers,
  tokens: loadTokens,
  clients: loadClients,
  connections: loadConnections,
  ontologies: loadOntologies,
  runtimes: loadRuntimes,
  clock: loadClock,
  journal: loadJournal,
};

// ---- the views services declare (GET /_emulate/ui/views): one panel each, searchable, paged ----

/** topic -> loaders of the declared views that a change of it refreshes. */
const VIEW_LOADERS = new Map();

/** A same-origin path the dashboard may link to (a view's `{text, href}` cell); anything else is shown as text. */
const safeHref = (href) => typeof href === 'string' && href.startsWith('/') && !href.startsWith('//') && !href.includes('\\');

/** One value of a view's cell: `{text, href}` is a download link, anything else text. */
function cellPart(value) {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const text = String(value.text ?? '');
    return safeHref(value.href) ? el('a', { href: value.href, download: '', className: 'file' }, text) : text;
  }
  return String(value);
}

function cell(value) {
  if (Array.isArray(value)) {
    if (value.length === 0) return '';
    if (value.some((v) => v && typeof v === 'object')) return value.map((v) => el('div', {}, cellPart(v)));
    return chips(value.map(String));
  }
  return value === undefined || value === null ? '' : cellPart(value);
}

function addViewPanel(view, index) {
  const id = `view-${index}`;
  const body = el('div', { className: 'body', id: `${id}-body` });
  const count = el('span', { className: 'count', id: `${id}-count` });
  const search = el('input', { type: 'search', placeholder: 'Search', autocomplete: 'off', ariaLabel: `Search ${view.title}` });
  // Paging: the tokens of the pages seen so far (the first page has none), and which one is shown (pageIndex).
  let tokens = [undefined];
  let pageIndex = 0;
  const go = (to) => {
    pageIndex = to;
    load().catch((err) => notice(`Could not load ${view.title}: ${err.message}`, true));
  };
  const previous = el('button', { type: 'button', ariaLabel: `Previous page of ${view.title}`, onclick: () => go(pageIndex - 1) }, 'Previous');
  const next = el('button', { type: 'button', ariaLabel: `Next page of ${view.title}`, onclick: () => go(pageIndex + 1) }, 'Next');
  const pageNumber = el('span', { className: 'muted small' });
  const pager = el('span', { className: 'pager', hidden: true }, previous, pageNumber, next);
  const section = el(
    'section',
    { className: 'panel wide', id, dataset: { service: view.service } },
    el('h2', {}, `${view.title} `, count),
    el('div', { className: 'journal-tools' }, search, pager),
    body,
  );
  document.getElementById('journal').before(section);
  const loadOnce = async () => {
    const q = search.value.trim();
    const params = [q && `q=${encodeURIComponent(q)}`, tokens[pageIndex] && `pageToken=${encodeURIComponent(tokens[pageIndex])}`].filter(Boolean);
    let page;
    try {
      page = await call('GET', `${view.listPath}${params.length ? `?${params.join('&')}` : ''}`);
    } catch (err) {
      // A page that is gone (the list shrank, or its token is stale) falls back to the first.
      if (pageIndex === 0) throw err;
      tokens = [undefined];
      pageIndex = 0;
      return loadOnce();
    }
    const items = page.items ?? [];
    tokens = tokens.slice(0, pageIndex + 1);
    if (page.nextPageToken) tokens.push(page.nextPageToken);
    const rows = items.map((item) =>
      el(
        'tr',
        {},
        view.columns.map((c) => el('td', {}, cell(item[c.field]))),
      ),
    );
    body.replaceChildren(
      items.length
        ? table(
            view.columns.map((c) => c.heading),
            rows,
          )
        : empty(q ? 'Nothing matches.' : 'Nothing yet.'),
    );
    count.textContent = String(items.length) + (page.nextPageToken || pageIndex > 0 ? ` on page ${pageIndex + 1}` : '');
    pager.hidden = !(pageIndex > 0 || page.nextPageToken);
    previous.disabled = pageIndex === 0;
    next.disabled = !page.nextPageToken;
    pageNumber.textContent = ` page ${pageIndex + 1} `;
  };
  // One load at a time: changes that arrive meanwhile read the page once more after it, not once each.
  let running;
  let again = false;
  const load = () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await loadOnce();
        } while (again);
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
  let typing = 0;
  search.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => {
      tokens = [undefined];
      go(0);
    }, 200);
  });
  if (!VIEW_LOADERS.has(view.topic)) VIEW_LOADERS.set(view.topic, []);
  VIEW_LOADERS.get(view.topic).push({ name: view.title, load });
}

async function loadViews() {
  const { views } = await call('GET', '/_emulate/ui/views');
  views.forEach(addViewPanel);
}

function refresh(topics) {
  const names = topics.includes('all') ? Object.keys(LOADERS) : topics.filter((t) => t in LOADERS);
  const loaders = names.map((name) => ({ name, load: LOADERS[name] }));
  for (const [topic, views] of VIEW_LOADERS) if (topics.includes('all') || topics.includes(topic)) loaders.push(...views);
  return Promise.all(
    loaders.map(({ name, load }) =>
      load().catch((err) => {
        notice(`Could not load ${name}: ${err.message}`, true);
      }),
    ),
  );
}

function setLive(state, text) {
  document.getElementById('live-dot').className = `dot ${state}`;
  document.getElementById('live-text').textContent = text;
  document.body.dataset.live = state;
}

function connect() {
  const events = new EventSource(`${BASE}/events`);
  events.addEventListener('open', () => {
    setLive('live', 'Live');
    // Whatever happened while the stream was down is read again.
    void refresh(['all']);
  });
  events.addEventListener('error', () => setLive('down', 'Reconnecting…'));
  events.addEventListener('journal', (e) => addJournalEntry(JSON.parse(e.data)));
  events.addEventListener('change', (e) => void refresh(JSON.parse(e.data).topics));
}

for (const button of document.querySelectorAll('[data-advance]')) {
  button.addEventListener('click', () => act(button, 'Moved the clock', () => call('POST', `${BASE}/clock`, { advanceMs: Number(button.dataset.advance) })));
}
document.getElementById('reset').addEventListener('click', (e) => act(e.currentTarget, 'Reset to the seed', () => call('POST', `${BASE}/reset`)));
document.getElementById('journal-clear').addEventListener('click', (e) => act(e.currentTarget, 'Cleared the journal', () => call('DELETE', `${BASE}/journal`)));
document.getElementById('refusals-only').addEventListener('change', renderJournal);
document.getElementById('journal-path').addEventListener('input', renderJournal);

loadViews()
  .catch((err) => notice(`Could not load the services' views: ${err.message}`, true))
  .finally(connect);
