// Checks a part of a request body against a TypeBox schema, for the tagged unions that a route schema cannot
// report clearly (one branch per `type`). A failure is 400 InvalidArgument naming the field, in the same form as
// the route schema's own failures (src/http/render-error.ts). Messages describe the expectation, never the value.
import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { invalidArgument } from '../../errors.js';
import { fieldPath, pointerSegments } from '../../field-path.js';

export type Path = ReadonlyArray<string | number>;

export function invalidField(at: Path, problem: string) {
  const field = fieldPath(at);
  return invalidArgument('InvalidArgument', { field }, `Invalid request body: ${field} ${problem}`);
}

export function check<T extends TSchema>(schema: T, value: unknown, at: Path): Static<T> {
  const first = Value.Errors(schema, value).First();
  if (first) throw invalidField([...at, ...pointerSegments(first.path)], lowerFirst(first.message));
  return value as Static<T>;
}

/** The `type` of a tagged union member; a missing or unknown one is InvalidArgument naming `<at>.type`. */
export function tagOf<K extends string>(value: unknown, at: Path, known: readonly K[]): K {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidField(at, 'expected object');
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string') throw invalidField([...at, 'type'], 'expected a string');
  if (!known.includes(type as K)) throw invalidField([...at, 'type'], `expected one of ${known.join(', ')}`);
  return type as K;
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

export const isBlank = (s: string) => s.trim() === '';
