// The dashboard's ontologies panel (declared in ../index.ts): each ontology's queries, object types (with
// their counts) and action types.
import { BASE, call, chips, el, empty, show, table } from '/_emulate/ui/panel-kit.js';

async function load() {
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

export default { load };
