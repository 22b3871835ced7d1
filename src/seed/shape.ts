// Lists and mappings, checked on the document as written, before defaults are filled in. Filling a default
// merges what was written into it, so a list written as a mapping (`users:` then `username: alice`, the dash
// forgotten) became an empty list, and `platform: []` an empty mapping: nothing was said and nothing was
// seeded (for `oauth_clients`, the server even ran in open mode). Generic over the schema, so every list and
// mapping a schema declares, today's or a future section's, is checked the same way.
import type { TSchema } from '@sinclair/typebox';

export interface ShapeProblem {
  segments: string[];
  message: string;
}

const isMapping = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Where `doc` has a mapping for a list, or a list for a mapping, by the schema. */
export function shapeProblems(schema: TSchema, doc: unknown): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  walk(schema, doc, [], problems);
  return problems;
}

function walk(schema: TSchema, value: unknown, segments: string[], out: ShapeProblem[]): void {
  if (schema.type === 'array') {
    if (isMapping(value)) out.push({ segments, message: listAsMapping(value) });
    else if (Array.isArray(value) && schema.items) value.forEach((item, i) => walk(schema.items as TSchema, item, [...segments, String(i)], out));
    return;
  }
  if (schema.type !== 'object') return; // scalars, unions and free-form values: the schema check speaks for them
  if (Array.isArray(value)) {
    out.push({ segments, message: 'must be a mapping, but is written as a list (its entries begin with "- "; write `key: value` lines instead)' });
    return;
  }
  if (!isMapping(value)) return;
  const properties = (schema.properties ?? {}) as Record<string, TSchema>;
  for (const [key, child] of Object.entries(properties)) {
    if (Object.hasOwn(value, key)) walk(child, value[key], [...segments, key], out);
  }
  // A map (name -> value) checks each of its values.
  const patterns = Object.values((schema.patternProperties ?? {}) as Record<string, TSchema>);
  const entryValues = typeof schema.additionalProperties === 'object' ? [schema.additionalProperties as TSchema] : patterns;
  if (entryValues.length === 1 && Object.keys(properties).length === 0) {
    for (const [key, entry] of Object.entries(value)) walk(entryValues[0]!, entry, [...segments, key], out);
  }
}

function listAsMapping(value: Record<string, unknown>): string {
  const first = Object.keys(value)[0];
  const example = first === undefined ? '' : ` (\`- ${first.length > 40 ? `${first.slice(0, 40)}…` : first}: ...\`)`;
  return `must be a list, but is written as a mapping: begin each entry with a dash${example}`;
}
