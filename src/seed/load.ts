// Read -> parse -> validate. Every problem is reported at once, each with its path
// (`platform.users[2].username: required`), so a broken seed is fixed in one pass.
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { parse, YAMLParseError } from 'yaml';
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import { ValueErrorType } from '@sinclair/typebox/errors';
import { configDocumentFor, type Seed, type SeedKeySchema } from './schema.js';
import { fieldPath, pointerSegments } from '../field-path.js';
import { shapeProblems } from './shape.js';
import { editDistance } from './edit-distance.js';
import { SECRETS_OMITTED } from './export.js';

export class SeedError extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`invalid config ${source}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** The config file itself could not be read: said in words, with the file's path. */
export class ConfigFileUnreadable extends SeedError {
  constructor(
    source: string,
    readonly reason: string,
    readonly missing: boolean,
  ) {
    super(source, [reason]);
    const shown = isAbsolute(source) ? source : `${source} (${resolve(source)})`;
    this.message = `cannot read the config file ${shown}: ${reason}`;
  }
}

function unreadable(path: string, err: NodeJS.ErrnoException): ConfigFileUnreadable {
  switch (err.code) {
    case 'ENOENT':
      return new ConfigFileUnreadable(path, 'no such file', true);
    case 'EISDIR':
      return new ConfigFileUnreadable(path, 'it is a directory, not a file', false);
    case 'ENOTDIR':
      return new ConfigFileUnreadable(path, 'a part of the path is not a directory', true);
    case 'EACCES':
    case 'EPERM':
      return new ConfigFileUnreadable(path, 'permission denied', false);
    default:
      return new ConfigFileUnreadable(path, err.message, false);
  }
}

/** Reads and validates a YAML seed file. */
export async function loadSeedFile(path: string, keys: readonly SeedKeySchema[] = [], options: SeedReadOptions = {}): Promise<Seed> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw unreadable(path, err as NodeJS.ErrnoException);
  }
  return parseSeed(text, path, keys, options);
}

export interface SeedReadOptions {
  /** Accept a state export that left secrets out (`--allow-missing-secrets`): those clients and runtimes get none. */
  allowMissingSecrets?: boolean;
}

/**
 * A state export names the secrets it left out (docs/contracts.md §7): in JSON a root `secretsOmitted` list, in
 * YAML a comment line. Such a document is refused, naming each one, unless the caller accepts it; either way the
 * list is taken off before the schema sees the document.
 */
function withoutOmittedSecrets(doc: unknown, text: string, source: string, options: SeedReadOptions): unknown {
  let omitted: string[] = [];
  if (doc && typeof doc === 'object' && !Array.isArray(doc) && 'secretsOmitted' in doc) {
    const { secretsOmitted, ...rest } = doc as { secretsOmitted: unknown };
    omitted = Array.isArray(secretsOmitted) ? secretsOmitted.map(String) : [];
    doc = rest;
  } else {
    const line = text.split('\n', 4).find((l) => l.startsWith(SECRETS_OMITTED));
    if (line)
      omitted = line
        .slice(SECRETS_OMITTED.length)
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean);
  }
  if (omitted.length && !options.allowMissingSecrets) {
    throw new SeedError(source, [
      `the document is a state export that left out ${omitted.length} secret${omitted.length === 1 ? '' : 's'} (${omitted.join(', ')}): export with ?secrets=include, or pass --allow-missing-secrets to start without them`,
    ]);
  }
  return doc;
}

/** Parses YAML text and validates it; `keys`: the services' own seed keys (src/services/index.ts). */
export function parseSeed(text: string, source = '<inline>', keys: readonly SeedKeySchema[] = [], options: SeedReadOptions = {}): Seed {
  let doc: unknown;
  try {
    // A seed written as JSON (JSON is YAML) is read by JSON.parse: the YAML parser takes ~100x longer on the
    // large object lists of an ontology seed. Anything JSON.parse refuses goes to the YAML parser as before.
    doc = parseJsonOr(text, parse);
  } catch (err) {
    if (err instanceof YAMLParseError) {
      const at = err.linePos?.[0];
      throw new SeedError(source, [`${at ? `line ${at.line}, column ${at.col}: ` : ''}${err.code}: ${err.message.split('\n')[0]}`]);
    }
    throw err;
  }
  return validateSeed(withoutOmittedSecrets(doc ?? {}, text, source, options), source, keys);
}

function parseJsonOr(text: string, yaml: (text: string) => unknown): unknown {
  if (text.trimStart().startsWith('{')) {
    try {
      return JSON.parse(text);
    } catch {
      // not JSON after all (YAML flow mappings look alike): the YAML parser decides
    }
  }
  return yaml(text);
}

/**
 * Validates an already-parsed document (root key `platform`) and fills in the defaults. `keys`: the services'
 * own seed keys, checked by their schemas and then by their own `check` (references, duplicates).
 */
export function validateSeed(doc: unknown, source = '<inline>', keys: readonly SeedKeySchema[] = []): Seed {
  const ConfigDocument = configDocumentFor(keys);
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new SeedError(source, ['the document must be a mapping with the root key `platform`']);
  }
  // A state export's `leftOut` says what it could not hold, for the reader; there is nothing in it to load.
  if ('leftOut' in doc) {
    const { leftOut: _said, ...rest } = doc as { leftOut: unknown };
    doc = rest;
  }
  // Lists and mappings are checked as written: filling the defaults would hide a list written as a mapping.
  const shapes = shapeProblems(ConfigDocument, doc).map((p) => ({ path: fieldPath(p.segments), message: p.message }));
  const value = Value.Default(ConfigDocument, structuredClone(doc)) as unknown;
  const covered = (path: string) => shapes.some((s) => path === s.path || path.startsWith(`${s.path}.`) || path.startsWith(`${s.path}[`));
  const problems = [...shapes.map((s) => `${s.path}: ${s.message}`), ...describeErrors(ConfigDocument, value, covered)];
  // What the schemas cannot see (references, duplicates, values against their types), once the shapes are right.
  if (problems.length === 0) {
    const platform = (value as { platform: Record<string, unknown> }).platform;
    for (const key of keys) problems.push(...(key.check?.(platform[key.key] as never, `platform.${key.key}`, platform, source) ?? []));
  }
  if (problems.length > 0) throw new SeedError(source, problems);
  return (value as { platform: Seed }).platform;
}

/** The schema's problems, one per path, leaving out those under a path already `covered` by a shape problem. */
function describeErrors(ConfigDocument: TSchema, value: unknown, covered: (path: string) => boolean): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const error of Value.Errors(ConfigDocument, value)) {
    const path = fieldPath(pointerSegments(error.path));
    if (seen.has(path) || covered(path)) continue; // one message per path: the first is the most specific
    seen.add(path);
    problems.push(`${path}: ${explain(ConfigDocument, error.type, error.path, error.schema, error.message)}`);
  }
  return problems;
}

function explain(document: TSchema, type: ValueErrorType, pointer: string, schema: TSchema, message: string): string {
  switch (type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'required';
    case ValueErrorType.ObjectAdditionalProperties:
      return unknownKey(document, pointer);
    case ValueErrorType.String:
      return 'must be a string';
    case ValueErrorType.Integer:
      return 'must be an integer';
    case ValueErrorType.Boolean:
      return 'must be true or false';
    case ValueErrorType.Array:
      return 'must be a list';
    case ValueErrorType.Object:
      return 'must be a mapping';
    case ValueErrorType.StringMinLength:
      return 'must not be empty';
    case ValueErrorType.Union: {
      const options = (schema.anyOf as TSchema[] | undefined)?.map((s) => s.const).filter((c) => c !== undefined);
      return options?.length ? `must be one of: ${options.join(', ')}` : message;
    }
    default:
      return message.charAt(0).toLowerCase() + message.slice(1);
  }
}

/** `unknown key` plus the nearest known key at that place, when one is close. */
function unknownKey(document: TSchema, pointer: string): string {
  const segments = pointerSegments(pointer);
  const key = segments.pop() ?? '';
  const known = knownKeysAt(document, segments);
  const atRoot = segments.length === 0;
  if (atRoot && key !== 'platform') return 'unknown key (the root key is `platform`; put every setting under it)';
  const suggestion = nearest(key, known);
  return suggestion ? `unknown key (did you mean \`${suggestion}\`?)` : `unknown key (known keys: ${known.join(', ')})`;
}

function knownKeysAt(document: TSchema, segments: string[]): string[] {
  let schema: TSchema | undefined = document;
  for (const seg of segments) {
    if (!schema) return [];
    schema = schema.type === 'array' ? (schema.items as TSchema) : (schema.properties as Record<string, TSchema>)?.[seg];
  }
  return schema?.properties ? Object.keys(schema.properties as object) : [];
}

function nearest(word: string, candidates: string[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const key of candidates) {
    const distance = editDistance(word.toLowerCase().replace(/-/g, '_'), key);
    if (distance <= Math.max(2, Math.floor(key.length / 3)) && (!best || distance < best.distance)) best = { key, distance };
  }
  return best?.key;
}
