// The dashboard's OAuth clients panel (declared in ../index.ts): each seeded client's redirect URIs,
// grants and scopes.
import { BASE, call, chips, el, empty, show, table } from '/_emulate/ui/panel-kit.js';

async function load() {
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

export default { load };
