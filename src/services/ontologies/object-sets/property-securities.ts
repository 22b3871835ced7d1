// Property security metadata (`loadPropertySecurities: true` on loadObjects and loadObjectsMultipleObjectTypes, what
// the typed client's `$loadPropertySecurityMetadata` sends; docs/live-ontology.md, "Property security metadata").
// The emulator puts no markings on properties, so the answer is the truthful one: every property value carries the
// one security entry, a marking summary with no markings. On the wire each value becomes a SecuredPropertyValue
// `{value, propertySecurityIndex: 0}` (an array property: one per element, as the client reads arrays), and the
// response's `propertySecurities` lists that entry. Without the flag nothing changes and the list is empty.
import type { Page } from '../object-reads/page.js';
import { invalidRequest } from '../errors.js';

const UNRESTRICTED = {
  disjunction: [{ type: 'propertyMarkingSummary', conjunctive: [], disjunctive: [], containerConjunctive: [], containerDisjunctive: [] }],
};

const secured = (value: unknown) => ({ value, propertySecurityIndex: 0 });

export function withPropertySecurities<P extends Page>(page: P, load: unknown): P & { propertySecurities: unknown[] } {
  if (load !== undefined && load !== null && typeof load !== 'boolean') throw invalidRequest('loadPropertySecurities', 'must be true or false');
  if (load !== true) return { ...page, propertySecurities: [] };
  const data = page.data.map((row) =>
    Object.fromEntries(Object.entries(row).map(([k, v]) => [k, k.startsWith('__') ? v : Array.isArray(v) ? v.map(secured) : secured(v)])),
  );
  return { ...page, data, propertySecurities: [UNRESTRICTED] };
}
