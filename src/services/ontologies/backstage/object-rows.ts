// The rows of the dashboard's Objects and Object files views (docs/ontology-dashboard.md), built for the page
// shown only: an object's primary key, title and its other properties as one short line, and the files its
// attachment and media properties name, each a link to the control route that streams the bytes.
import type { OntologyObjectRecord, Store } from '../../../store/store.js';
import type { ObjectTypeDef } from '../../../store/ontology-model.js';
import { ONTOLOGY_FILES, type OntologyFile } from '../attachments/part.js';
import { attachmentRidOf, mediaItemRidOf } from '../attachments/values.js';
import type { Hit } from './object-scan.js';

export const FILE_CONTENT_PATH = '/_emulate/platform/ontologies/files';
/** The properties line of a row, in characters, and of each value in it. */
const LINE_CHARS = 400;
const VALUE_CHARS = 80;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const isFileType = (type: string | undefined) => type === 'attachment' || type === 'mediaReference';

/** The file properties of a type: attachment or media, alone or as an array's elements. */
export function filePropertiesOf(type: ObjectTypeDef): string[] {
  const out: string[] = [];
  for (const p of type.properties.values()) {
    const dt = p.dataType as { type: string; subType?: { type: string } };
    if (isFileType(dt.type) || (dt.type === 'array' && isFileType(dt.subType?.type))) out.push(p.apiName);
  }
  return out;
}

export interface FileRef {
  object: OntologyObjectRecord;
  property: string;
  rid: string;
}

/** The files an object's file properties name, in property order. */
export function fileRefsOf(object: OntologyObjectRecord, fileProperties: readonly string[]): FileRef[] {
  const refs: FileRef[] = [];
  for (const property of fileProperties) {
    const value = object.values[property];
    for (const v of Array.isArray(value) ? value : [value]) {
      const rid = attachmentRidOf(v) ?? mediaItemRidOf(v);
      if (rid) refs.push({ object, property, rid });
    }
  }
  return refs;
}

const sizeText = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** A file as a view cell: its name, size and type, linked to its bytes. */
export const fileLink = (f: OntologyFile) => ({
  text: `${f.filename} (${sizeText(f.sizeBytes)}, ${f.mediaType})`,
  href: `${FILE_CONTENT_PATH}/${encodeURIComponent(f.rid)}`,
});

/** The file records of some rids, looked up one by one (a page names few). */
export async function filesByRid(store: Store, rids: Iterable<string>): Promise<Map<string, OntologyFile>> {
  const files = new Map<string, OntologyFile>();
  const repo = store.part(ONTOLOGY_FILES);
  for (const rid of new Set(rids)) {
    const f = await repo.get(rid);
    if (f) files.set(rid, f);
  }
  return files;
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return cut(value, VALUE_CHARS);
  if (Array.isArray(value)) return cut(`[${value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}]`, VALUE_CHARS);
  return cut(JSON.stringify(value) ?? String(value), VALUE_CHARS);
}

/** `name: value · name: value`, the primary key and title left out (they have their own columns). */
function propertiesLine(type: ObjectTypeDef, o: OntologyObjectRecord, files: Map<string, OntologyFile>, fileProps: readonly string[]): string {
  const parts: string[] = [];
  let length = 0;
  for (const name of type.properties.keys()) {
    if (name === type.primaryKey || name === type.titleProperty || !(name in o.values)) continue;
    const value = o.values[name];
    const text = fileProps.includes(name)
      ? fileRefsOf(o, [name])
          .map((r) => files.get(r.rid)?.filename ?? '(missing file)')
          .join(', ')
      : valueText(value);
    parts.push(`${name}: ${text}`);
    length += name.length + text.length + 5;
    if (length > LINE_CHARS) break;
  }
  return cut(parts.join(' · '), LINE_CHARS);
}

/** The Objects view's rows of a page. */
export async function objectRows(store: Store, hits: ReadonlyArray<Hit<OntologyObjectRecord>>) {
  const fileProps = new Map<ObjectTypeDef, string[]>();
  const propsOf = (t: ObjectTypeDef) => fileProps.get(t) ?? fileProps.set(t, filePropertiesOf(t)).get(t)!;
  const refs = hits.map((h) => fileRefsOf(h.item, propsOf(h.scope.type)));
  const files = await filesByRid(
    store,
    refs.flat().map((r) => r.rid),
  );
  return hits.map(({ scope: { ontology, type }, item: o }, i) => ({
    ontology: ontology.apiName,
    objectType: type.apiName,
    primaryKey: String(o.primaryKey),
    title: o.values[type.titleProperty] === undefined ? '' : valueText(o.values[type.titleProperty]),
    properties: propertiesLine(type, o, files, propsOf(type)),
    files: refs[i]!.map((r) => {
      const f = files.get(r.rid);
      return f ? fileLink(f) : `${r.property}: ${r.rid} (missing)`;
    }),
  }));
}

/** The Object files view's rows of a page. */
export async function fileRows(store: Store, hits: ReadonlyArray<Hit<FileRef>>, known?: Map<string, OntologyFile>) {
  const files =
    known ??
    (await filesByRid(
      store,
      hits.map((h) => h.item.rid),
    ));
  return hits.map(({ scope: { ontology, type }, item: ref }) => {
    const f = files.get(ref.rid);
    return {
      ontology: ontology.apiName,
      objectType: type.apiName,
      primaryKey: String(ref.object.primaryKey),
      property: ref.property,
      file: f ? fileLink(f) : `${ref.rid} (missing)`,
      kind: f?.kind ?? '',
      mediaType: f?.mediaType ?? '',
      sizeBytes: f?.sizeBytes ?? '',
    };
  });
}
