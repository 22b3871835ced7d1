// Aggregations (AggregateObjectsResponseV2): metrics count, min, max, sum, avg, exactDistinct and
// approximateDistinct (computed exactly), grouped by `exact` values and `ranges` ([start, end)). Other
// metrics and groupings (fixedWidth, duration, approximatePercentile) are named in a 400.
import type { OntologyObjectRecord } from '../../../store/store.js';
import type { ObjectTypeDef } from '../../../store/ontology-model.js';
import { isRecord } from '../model/data-types.js';
import { comparatorFor, type Comparator } from '../object-reads/compare.js';
import { invalidRequest, notSupported, propertiesNotFound } from '../errors.js';
import { PlatformError } from '../../../errors.js';

const groupsExceeded = (groupsLimit: number) =>
  new PlatformError(
    'INVALID_ARGUMENT',
    'AggregationGroupCountExceededLimit',
    { groupsCount: groupsLimit + 1, groupsLimit },
    `The aggregation makes more than ${groupsLimit} groups.`,
  );

const NUMERIC = ['byte', 'short', 'integer', 'long', 'double', 'float', 'decimal'];
const MAX_GROUPS = 10000;

interface Metric {
  name: string;
  type: string;
  field?: string;
  compare?: Comparator;
  direction?: 'ASC' | 'DESC';
}
interface Grouping {
  field: string;
  maxGroups?: number;
  key: (o: OntologyObjectRecord) => unknown[] | undefined; // the groups an object falls into (none: excluded)
}

export function aggregate(type: ObjectTypeDef, objects: readonly OntologyObjectRecord[], aggregation: unknown, groupBy: unknown) {
  if (!Array.isArray(aggregation)) throw invalidRequest('aggregation', 'must be a list');
  const metrics = aggregation.map((a) => metricOf(type, a));
  const groupings = (groupBy === undefined ? [] : Array.isArray(groupBy) ? groupBy : [groupBy]).map((g) => groupingOf(type, g));

  const groups = new Map<string, { group: Record<string, unknown>; members: OntologyObjectRecord[] }>();
  for (const o of objects) {
    let combos: Array<Array<[string, unknown]>> = [[]];
    for (const g of groupings) {
      const values = g.key(o);
      if (!values) {
        combos = [];
        break;
      }
      combos = combos.flatMap((c) => values.map((v) => [...c, [g.field, v] as [string, unknown]]));
    }
    for (const combo of combos) {
      const id = JSON.stringify(combo);
      let entry = groups.get(id);
      if (!entry) {
        if (groups.size >= MAX_GROUPS) throw groupsExceeded(MAX_GROUPS);
        groups.set(id, (entry = { group: Object.fromEntries(combo), members: [] }));
      }
      entry.members.push(o);
    }
  }
  if (groupings.length === 0 && groups.size === 0) groups.set('[]', { group: {}, members: [] });
  const sizes = new Map<object, number>();
  const data = [...groups.values()].map(({ group, members }) => {
    const item = { group, metrics: metrics.map((m) => metricValue(m, members)).filter((m) => m.value !== undefined) };
    sizes.set(item, members.length);
    return item;
  });
  const ordered = metrics.find((m) => m.direction);
  if (ordered) {
    const sign = ordered.direction === 'DESC' ? -1 : 1;
    const value = (d: (typeof data)[number]) => d.metrics.find((m) => m.name === ordered.name)?.value;
    data.sort((a, b) => sign * compareValues(value(a), value(b)));
  }
  // maxGroupCount keeps the largest groups (by object count; ties in the order met).
  const limit = Math.min(...groupings.map((g) => g.maxGroups ?? Infinity));
  if (data.length > limit) {
    const keep = new Set([...data].sort((a, b) => sizes.get(b)! - sizes.get(a)!).slice(0, limit));
    return { accuracy: 'ACCURATE', data: data.filter((d) => keep.has(d)) };
  }
  return { accuracy: 'ACCURATE', data };
}

function metricOf(type: ObjectTypeDef, a: unknown): Metric {
  if (!isRecord(a) || typeof a.type !== 'string') throw invalidRequest('aggregation', 'each entry must be an object with a `type`');
  const direction = a.direction === 'ASC' || a.direction === 'DESC' ? a.direction : undefined;
  if (a.type === 'count') return { name: typeof a.name === 'string' ? a.name : 'count', type: 'count', direction };
  if (!['min', 'max', 'sum', 'avg', 'exactDistinct', 'approximateDistinct'].includes(a.type)) throw notSupported('aggregation', a.type);
  const field = fieldName(a);
  const prop = type.properties.get(field);
  if (!prop) throw propertiesNotFound(type.apiName, [field]);
  if ((a.type === 'sum' || a.type === 'avg') && !NUMERIC.includes(prop.dataType.type)) throw invalidRequest(`aggregation.${a.type}`, `${field} is not numeric`);
  const compare = comparatorFor(prop.dataType);
  if ((a.type === 'min' || a.type === 'max') && !compare) throw invalidRequest(`aggregation.${a.type}`, `${field} is not orderable`);
  return { name: typeof a.name === 'string' ? a.name : `${field}.${a.type}`, type: a.type, field, compare, direction };
}

function metricValue(m: Metric, members: OntologyObjectRecord[]): { name: string; value: unknown } {
  if (m.type === 'count') return { name: m.name, value: members.length };
  const values = members.map((o) => o.values[m.field!]).filter((v) => v !== undefined);
  switch (m.type) {
    case 'sum':
      return { name: m.name, value: values.reduce((s: number, v) => s + Number(v), 0) };
    case 'avg':
      return { name: m.name, value: values.length ? values.reduce((s: number, v) => s + Number(v), 0) / values.length : undefined };
    case 'min':
    case 'max': {
      const sign = m.type === 'min' ? 1 : -1;
      let best: unknown;
      for (const v of values) if (best === undefined || sign * m.compare!(v, best) < 0) best = v;
      return { name: m.name, value: best };
    }
    default:
      return { name: m.name, value: new Set(values.map((v) => JSON.stringify(v))).size };
  }
}

function groupingOf(type: ObjectTypeDef, g: unknown): Grouping {
  if (!isRecord(g) || typeof g.type !== 'string') throw invalidRequest('groupBy', 'each entry must be an object with a `type`');
  if (g.type !== 'exact' && g.type !== 'ranges') throw notSupported('groupBy', g.type);
  const field = fieldName(g);
  const prop = type.properties.get(field);
  if (!prop) throw propertiesNotFound(type.apiName, [field]);
  if (g.type === 'exact') {
    const includeNull = g.includeNullValues === true;
    const nullGroup = typeof g.defaultValue === 'string' ? g.defaultValue : null;
    const arrays = prop.dataType.type === 'array';
    if (g.maxGroupCount !== undefined && (!Number.isInteger(g.maxGroupCount) || (g.maxGroupCount as number) < 1))
      throw invalidRequest('groupBy.maxGroupCount', 'must be a positive integer');
    return {
      field,
      maxGroups: g.maxGroupCount as number | undefined,
      key: (o) => {
        const v = o.values[field];
        if (v === undefined) return includeNull ? [nullGroup] : undefined;
        return arrays ? [...new Set(v as unknown[])] : [v];
      },
    };
  }
  const compare = comparatorFor(prop.dataType);
  if (!compare || !Array.isArray(g.ranges)) throw invalidRequest('groupBy.ranges', `needs an orderable property and a list of ranges`);
  const ranges = g.ranges.map((r) => {
    if (!isRecord(r)) throw invalidRequest('groupBy.ranges', 'each range is {startValue, endValue}');
    return { startValue: r.startValue, endValue: r.endValue };
  });
  return {
    field,
    key: (o) => {
      const v = o.values[field];
      if (v === undefined) return undefined;
      const hits = ranges.filter((r) => (r.startValue == null || compare(v, r.startValue) >= 0) && (r.endValue == null || compare(v, r.endValue) < 0));
      return hits.length ? hits.map((r) => ({ ...r })) : undefined;
    },
  };
}

function fieldName(a: Record<string, unknown>): string {
  if (typeof a.field === 'string') return a.field;
  const id = a.propertyIdentifier;
  if (isRecord(id) && id.type === 'property' && typeof id.apiName === 'string') return id.apiName;
  throw invalidRequest(`aggregation.${String(a.type)}`, 'needs a field');
}

/** Metric values in order: numbers as numbers, anything else (dates, strings) as text; absent last. */
function compareValues(a: unknown, b: unknown): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}
