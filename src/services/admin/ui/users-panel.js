// The dashboard's users panel (declared in ../backstage/index.ts): each user, its state, and a button that
// deactivates or activates it through the control route.
import { actionButton, BASE, call, el, empty, show, table } from '/_emulate/ui/panel-kit.js';

async function load() {
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
        actionButton(u.active ? 'Deactivate' : 'Activate', {
          key: `user:${u.username}`,
          ariaLabel: `${u.active ? 'Deactivate' : 'Activate'} ${u.username}`,
          done: `${u.active ? 'Deactivated' : 'Activated'} ${u.username}`,
          run: () => call('POST', `${BASE}/users/${encodeURIComponent(u.username)}/${u.active ? 'deactivate' : 'activate'}`),
        }),
      ),
    ),
  );
  show('users', users.length ? table(['User', 'State', ''], rows) : empty('No users.'), users.length);
}

export default { load };
