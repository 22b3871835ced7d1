// The operation of a `selection` derived property over the objects its method object set reached from one
// object (docs/live-ontology.md, "Derived properties"). The definition was checked by compile.ts; absent values
// are skipped; a value that cannot be computed (a `get` or an `avg` over nothing) is undefined, so the object
// leaves the derived property out. Distinct counts and percentiles are exact (a valid approximation).
import type { OntologyObjectRecord } from '../../../store/store.js';
import type { Comparator } from '../object-reads/compare.js';

/** `compare` orders the selected property's values (min and max; compile.ts checked there is one). */
export function operate(objects: readonly OntologyObjectRecord[], operation: Record<string, unknown>, compare?: Comparator): unknown {
  if (operation.type === 'count') return objects.length;
  const name = operation.selectedPropertyApiName as string;
  const values = objects.map((o) => o.values[name]).filter((v) => v !== undefined && v !== null);
  const numbers = () => values.map(Number).filter((n) => Number.isFinite(n));
  const limit = typeof operation.limit === 'number' ? operation.limit : 100;
  switch (operation.type) {
    case 'get':
      return values[0];
    case 'min':
    case 'max': {
      const sign = operation.type === 'min' ? 1 : -1;
      let best: unknown;
      for (const v of values) if (best === undefined || sign * compare!(v, best) < 0) best = v;
      return best;
    }
    case 'sum':
      return numbers().reduce((a, b) => a + b, 0);
    case 'avg': {
      const n = numbers();
      return n.length ? n.reduce((a, b) => a + b, 0) / n.length : undefined;
    }
    case 'approximatePercentile': {
      const n = numbers().sort((a, b) => a - b);
      if (n.length === 0) return undefined;
      const at = (operation.approximatePercentile as number) * (n.length - 1);
      const lo = Math.floor(at);
      return n[lo]! + (n[Math.min(lo + 1, n.length - 1)]! - n[lo]!) * (at - lo);
    }
    case 'exactDistinct':
    case 'approximateDistinct':
      return new Set(values.map((v) => JSON.stringify(v))).size;
    case 'collectList':
      return values.slice(0, limit);
    case 'collectSet':
      return [...new Map(values.map((v) => [JSON.stringify(v), v])).values()].slice(0, limit);
    default:
      return undefined;
  }
}
