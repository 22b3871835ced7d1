// The dashboard's compute-modules panel (declared in ../index.ts): each runtime's apps, functions, waiting
// polls and jobs, with a button that cancels an open job through the control route.
import { actionButton, BASE, call, chips, el, empty, show, since, table } from '/_emulate/ui/panel-kit.js';

const RUNTIMES = `${BASE}/compute-modules/runtimes`;

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
        ? actionButton('Cancel', {
            key: `job:${j.id}`,
            ariaLabel: `Cancel job ${j.id}`,
            done: `Canceled job ${j.id.slice(0, 8)}`,
            run: () => call('DELETE', `${RUNTIMES}/${encodeURIComponent(runtimeId)}/jobs/${encodeURIComponent(j.id)}`),
          })
        : null,
    ),
  );
}
async function load() {
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

export default { load };
