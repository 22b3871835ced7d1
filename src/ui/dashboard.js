// The dashboard's script: draws the panels and views the services declare (GET /_emulate/ui/views; it names
// no service), the clock and the journal, and stays live from the server-sent event stream: a `change` event
// reloads the panels and views of its topics, a `journal` event adds a row to the journal.
import { BASE, act, call, chips, el, empty, notice, show, table } from './panel-kit.js';

const JOURNAL_ROWS = 200;

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

/** topic -> loaders it refreshes: the page's own, then each declared panel's and view's. */
const LOADERS = new Map([
  ['clock', [{ name: 'the clock', load: loadClock }]],
  ['journal', [{ name: 'the journal', load: loadJournal }]],
]);

function onTopics(topics, loader) {
  for (const topic of topics) {
    if (!LOADERS.has(topic)) LOADERS.set(topic, []);
    LOADERS.get(topic).push(loader);
  }
}

// ---- the panels services declare: a script of theirs draws each (its default export's `load`) ----

async function addPanel(panel) {
  const section = el(
    'section',
    { className: panel.wide ? 'panel wide' : 'panel', id: panel.id, 'aria-labelledby': `${panel.id}-h`, dataset: { panelOf: panel.service } },
    el('h2', { id: `${panel.id}-h` }, `${panel.title} `, el('span', { className: 'count', id: `${panel.id}-count` })),
    el('div', { className: 'body', id: `${panel.id}-body` }),
  );
  document.getElementById('journal').before(section);
  const { load } = (await import(panel.src)).default;
  onTopics(panel.topics, { name: panel.title, load });
}

// ---- the views services declare (GET /_emulate/ui/views): one panel each, searchable, paged ----

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
  onTopics([view.topic], { name: view.title, load });
}

async function loadViews() {
  const { views, panels } = await call('GET', '/_emulate/ui/views');
  // Panels first, in the services' order, then views: each is placed before the journal as it comes.
  for (const panel of panels) await addPanel(panel);
  views.forEach(addViewPanel);
}

function refresh(topics) {
  const loaders = new Set();
  for (const [topic, list] of LOADERS) if (topics.includes('all') || topics.includes(topic)) for (const l of list) loaders.add(l);
  return Promise.all(
    [...loaders].map(({ name, load }) =>
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
  .catch((err) => notice(`Could not load the services' panels and views: ${err.message}`, true))
  .finally(connect);
