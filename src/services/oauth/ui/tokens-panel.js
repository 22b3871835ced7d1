// The dashboard's live-tokens panel (declared in ../index.ts): whose, which client, scopes, expiry, and a
// button that revokes one through the control route.
import { actionButton, BASE, call, chips, el, empty, show, table } from '/_emulate/ui/panel-kit.js';

async function load() {
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
        actionButton('Revoke', {
          key: `token:${t.id}`,
          ariaLabel: `Revoke token ${t.id} of ${t.username ?? 'unknown'}`,
          done: `Revoked token ${t.id}`,
          run: () => call('DELETE', `${BASE}/tokens/${t.id}`),
        }),
      ),
    ),
  );
  const note = truncated ? el('p', { className: 'muted small' }, `Showing the newest ${tokens.length} of ${total}.`) : null;
  show('tokens', tokens.length ? el('div', {}, table(['Whose', 'Client', 'Scopes', 'Expires in', ''], rows), note) : empty('No live tokens.'), tokens.length);
}

export default { load };
