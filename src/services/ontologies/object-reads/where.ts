// SearchJsonQueryV2 -> a predicate over stored objects, checked against the object type first: unknown
// properties are PropertiesNotFound, ill-typed values InvalidPropertyFilterValue, and a clause the emulator
// does not evaluate is named in a 400 (never a silently wrong answer). Semantics, per clause:
// eq/in: equal values; gt/gte/lt/lte: ordered as compare.ts orders; isNull: the property is absent (value
// true) or present (false); startsWith: the string starts with the value (case-sensitive); containsAnyTerm,
// containsAllTerms, containsAllTermsInOrder: the value's terms (lowercased runs of letters and digits) are
// among the property's terms, any/all/all adjacent in order; contains: an array property has an element
// equal to the value. An absent property matches no clause but isNull (and `not` of one).
import type { DataType, ObjectTypeDef } from '../../../store/ontology-model.js';
import type { OntologyObjectRecord } from '../../../store/ontology-objects.js';
import { isRecord, valueProblem } from '../model/data-types.js';
import { comparatorFor } from './compare.js';
import { invalidPropertyFilterValue, invalidRequest, notSupported, propertiesNotFound } from '../errors.js';
import { quote } from '../../../errors.js';

export type Predicate = (o: OntologyObjectRecord) => boolean;

const COMPARISONS = { gt: (c: number) => c > 0, gte: (c: number) => c >= 0, lt: (c: number) => c < 0, lte: (c: number) => c <= 0 } as const;
const TERM_CLAUSES = ['containsAnyTerm', 'containsAllTerms', 'containsAllTermsInOrder'];
/** For the reason of a refused clause. */
const SUPPORTED = ['and', 'or', 'not', 'eq', 'in', 'gt', 'gte', 'lt', 'lte', 'isNull', 'startsWith', 'contains', ...TERM_CLAUSES];

export function compileWhere(type: ObjectTypeDef, clause: unknown): Predicate {
  if (!isRecord(clause) || typeof clause.type !== 'string') throw invalidRequest('where', 'a clause must be an object with a `type`');
  const kind = clause.type;
  if (kind === 'and' || kind === 'or') {
    if (!Array.isArray(clause.value)) throw invalidRequest(`where.${kind}`, 'value must be a list of clauses');
    const parts = clause.value.map((c) => compileWhere(type, c));
    return kind === 'and' ? (o) => parts.every((p) => p(o)) : (o) => parts.some((p) => p(o));
  }
  if (kind === 'not') {
    const inner = compileWhere(type, clause.value);
    return (o) => !inner(o);
  }
  const { read, dataType, name } = fieldOf(type, clause);
  const value = clause.value;
  const expect = (ok: boolean, expected: string) => {
    if (!ok) throw invalidPropertyFilterValue(name, kind, expected, value);
  };
  const scalarValue = (v: unknown) => expect(v !== null && v !== undefined && valueProblem(dataType, v) === undefined, dataType.type);
  switch (kind) {
    case 'eq': {
      expect(dataType.type !== 'array' && dataType.type !== 'struct' && dataType.type !== 'geopoint', 'a scalar property (use contains for arrays)');
      scalarValue(value);
      const key = canonical(dataType, value);
      return (o) => {
        const v = read(o);
        return v !== undefined && canonical(dataType, v) === key;
      };
    }
    case 'in': {
      expect(Array.isArray(value) && dataType.type !== 'array' && dataType.type !== 'struct', 'a list of values of a scalar property');
      (value as unknown[]).forEach(scalarValue);
      const keys = new Set((value as unknown[]).map((v) => canonical(dataType, v)));
      return (o) => {
        const v = read(o);
        return v !== undefined && keys.has(canonical(dataType, v));
      };
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const compare = comparatorFor(dataType);
      expect(compare !== undefined, 'an orderable property (number, string, date, timestamp, boolean)');
      scalarValue(value);
      const test = COMPARISONS[kind];
      return (o) => {
        const v = read(o);
        return v !== undefined && test(compare!(v, value));
      };
    }
    case 'isNull':
      expect(typeof value === 'boolean', 'true or false');
      return value ? (o) => read(o) === undefined : (o) => read(o) !== undefined;
    case 'startsWith': {
      expect(dataType.type === 'string' && typeof value === 'string', 'a string value on a string property');
      const prefix = value as string;
      return (o) => {
        const v = read(o);
        return typeof v === 'string' && v.startsWith(prefix);
      };
    }
    case 'contains': {
      expect(dataType.type === 'array', 'an array property');
      const element = (dataType as { subType: DataType }).subType;
      expect(value !== null && valueProblem(element, value) === undefined, element.type);
      const key = canonical(element, value);
      return (o) => {
        const v = read(o);
        return Array.isArray(v) && v.some((x) => canonical(element, x) === key);
      };
    }
    default:
      if (TERM_CLAUSES.includes(kind)) return termClause(kind, clause, read, name);
      throw notSupported('where clause', kind).because(`The emulator does not evaluate the where clause ${quote(kind)}; it evaluates ${SUPPORTED.join(', ')}.`);
  }
}

function termClause(kind: string, clause: Record<string, unknown>, read: (o: OntologyObjectRecord) => unknown, name: string): Predicate {
  if (typeof clause.value !== 'string') throw invalidPropertyFilterValue(name, kind, 'string', clause.value);
  if (clause.fuzzy !== undefined && clause.fuzzy !== false) throw notSupported('where clause option', `${kind}.fuzzy`);
  const wanted = terms(clause.value);
  return (o) => {
    const v = read(o);
    if (typeof v !== 'string') return false;
    const have = terms(v);
    if (kind === 'containsAnyTerm') return wanted.some((t) => have.includes(t));
    if (kind === 'containsAllTerms') return wanted.length > 0 && wanted.every((t) => have.includes(t));
    if (wanted.length === 0) return false;
    for (let i = 0; i + wanted.length <= have.length; i++) if (wanted.every((t, j) => have[i + j] === t)) return true;
    return false;
  };
}

export const terms = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Equal values compare equal as text: 1 and 1.0 are one number, a decimal's "1.50" equals 1.5. */
function canonical(type: DataType, v: unknown): string {
  if (type.type === 'decimal' || type.type === 'double' || type.type === 'float') return String(Number(v));
  if (type.type === 'timestamp') return String(Date.parse(v as string));
  return typeof v === 'string' ? `s${v}` : String(v);
}

/** The clause's property: `field`, or `propertyIdentifier` (a property or a struct field). */
function fieldOf(type: ObjectTypeDef, clause: Record<string, unknown>): { read: (o: OntologyObjectRecord) => unknown; dataType: DataType; name: string } {
  const id = clause.propertyIdentifier;
  if (typeof clause.field === 'string' && id === undefined) return property(type, clause.field);
  if (clause.field === undefined && isRecord(id)) {
    if (id.type === 'property' && typeof id.apiName === 'string') return property(type, id.apiName);
    if (id.type === 'structField' && typeof id.propertyApiName === 'string' && typeof id.structFieldApiName === 'string') {
      const outer = property(type, id.propertyApiName);
      const fieldName = id.structFieldApiName;
      const field = outer.dataType.type === 'struct' ? outer.dataType.fields.find((f) => f.name === fieldName) : undefined;
      if (!field) throw propertiesNotFound(type.apiName, [`${id.propertyApiName}.${fieldName}`]);
      return {
        name: `${id.propertyApiName}.${fieldName}`,
        dataType: field.type,
        read: (o) => {
          const s = outer.read(o);
          return isRecord(s) ? (s[fieldName] ?? undefined) : undefined;
        },
      };
    }
    throw notSupported('property identifier', String(id.type));
  }
  throw invalidRequest(`where.${String(clause.type)}`, 'give exactly one of field or propertyIdentifier');
}

function property(type: ObjectTypeDef, name: string) {
  const def = type.properties.get(name);
  if (!def) throw propertiesNotFound(type.apiName, [name]);
  return { name, dataType: def.dataType, read: (o: OntologyObjectRecord) => o.values[name] };
}

/**
 * An equality a clause implies of every object it matches: an `eq` on a scalar property, at its top or inside
 * its top `and`s. `keyOf` gives any object's key for that property, equal to `key` exactly when the `eq` holds,
 * so a caller may index clauses by key (the live sets do: docs/live-ontology.md). Undefined when there is none.
 * Call it on a clause compileWhere accepted.
 */
export function equalityOf(
  type: ObjectTypeDef,
  clause: unknown,
): { field: string; key: string; keyOf: (o: OntologyObjectRecord) => string | undefined } | undefined {
  if (!isRecord(clause)) return undefined;
  if (clause.type === 'and' && Array.isArray(clause.value)) {
    for (const part of clause.value) {
      const found = equalityOf(type, part);
      if (found) return found;
    }
    return undefined;
  }
  if (clause.type !== 'eq') return undefined;
  const { read, dataType, name } = fieldOf(type, clause);
  return {
    field: name,
    key: canonical(dataType, clause.value),
    keyOf: (o) => {
      const v = read(o);
      return v === undefined ? undefined : canonical(dataType, v);
    },
  };
}
