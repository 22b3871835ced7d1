// Ordering of property values: numbers as numbers, timestamps by instant, everything else (strings, dates
// `YYYY-MM-DD`, decimals written as text are compared as numbers) by code point. Absent values sort last.
import type { DataType } from '../../../store/ontology-model.js';

export type Comparator = (a: unknown, b: unknown) => number;

export function comparatorFor(type: DataType): Comparator | undefined {
  switch (type.type) {
    case 'byte':
    case 'short':
    case 'integer':
    case 'long':
    case 'double':
    case 'float':
    case 'decimal':
      return (a, b) => Number(a) - Number(b);
    case 'timestamp':
      return (a, b) => Date.parse(a as string) - Date.parse(b as string);
    case 'string':
    case 'date':
      return (a, b) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0);
    case 'boolean':
      return (a, b) => Number(a) - Number(b);
    default:
      return undefined; // arrays, structs, geopoints: not orderable
  }
}
