// The dashboard's connections panel (declared in ../index.ts): each connection's domains and the names (never
// the values) of its secrets.
import { BASE, call, chips, el, empty, show, table } from '/_emulate/ui/panel-kit.js';

async function load() {
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

export default { load };
