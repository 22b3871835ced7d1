// Files in the seed (docs/live-ontology.md): an attachment or media property of a seeded object may be written
// `{from: files/report.pdf}`, a file beside the seed. The check resolves the path where the seed's folder is
// known; applying the seed streams the bytes into the byte store and writes the property's real value. The
// rids are derived from (ontology, type, key, property), so a reset gives the same ones.
import { createReadStream, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { OntologyObjectRecord, Store } from '../../../store/store.js';
import type { ObjectTypeDef } from '../../../store/ontology-model.js';
import type { Clock } from '../../../clock.js';
import { stableUuid } from '../../../ids.js';
import { BLOBS } from '../../../blobs/index.js';
import { ONTOLOGY_FILES } from './part.js';
import { mediaReference } from './values.js';
import { typeFromName } from './media-type.js';

const FILE_TYPES = new Set(['attachment', 'mediaReference']);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const typeName = (raw: unknown) => (typeof raw === 'string' ? raw : isRecord(raw) ? raw.type : undefined);

interface SeedLike {
  object_types: Array<{ api_name: string; properties: Record<string, unknown> }>;
  objects: Record<string, Array<Record<string, unknown>>>;
}

/** Makes every `{from}` of a file property absolute (relative to the seed file); problems name unreadable files. */
export function resolveSeedFiles(ontologies: readonly SeedLike[], path: string, source: string): string[] {
  const problems: string[] = [];
  const base = source === '<inline>' || !source ? process.cwd() : dirname(resolve(source));
  ontologies.forEach((o, i) => {
    for (const type of o.object_types) {
      const fileProps = Object.entries(type.properties).filter(([, t]) => FILE_TYPES.has(String(typeName(t))));
      (o.objects[type.api_name] ?? []).forEach((object, j) => {
        for (const [name] of fileProps) {
          const value = object[name];
          if (!isRecord(value) || typeof value.from !== 'string') continue;
          const file = isAbsolute(value.from) ? value.from : resolve(base, value.from);
          try {
            if (!statSync(file).isFile()) problems.push(`${path}[${i}].objects.${type.api_name}[${j}].${name}.from: ${file} is not a file`);
            else value.from = file;
          } catch {
            problems.push(`${path}[${i}].objects.${type.api_name}[${j}].${name}.from: cannot read ${file}`);
          }
        }
      });
    }
  });
  return problems;
}

/** The objects with each `{from}` file stored and replaced by its value (new records; the seed's stay as they are). */
export async function storeSeedFiles(
  store: Store,
  clock: Clock,
  ontologyRid: string,
  types: ReadonlyMap<string, ObjectTypeDef>,
  objects: readonly OntologyObjectRecord[],
): Promise<OntologyObjectRecord[]> {
  const out: OntologyObjectRecord[] = [];
  for (const o of objects) {
    const type = types.get(o.objectType);
    let values: Record<string, unknown> | undefined;
    for (const [name, value] of Object.entries(o.values)) {
      const kind = type?.properties.get(name)?.dataType.type;
      if (!isRecord(value) || typeof value.from !== 'string' || (kind !== 'attachment' && kind !== 'mediaReference')) continue;
      const id = stableUuid(`${ontologyRid}:${o.objectType}:${o.key}:${name}`);
      const rid = kind === 'attachment' ? `ri.attachments.main.attachment.${id}` : `ri.mio.main.media-item.${id}`;
      const info = await store.part(BLOBS).put(createReadStream(value.from), { maxBytes: Number.MAX_SAFE_INTEGER });
      const filename = value.from.split(/[\\/]/).pop() ?? 'file';
      const mediaType = typeof value.content_type === 'string' ? value.content_type : (typeFromName(filename) ?? 'application/octet-stream');
      await store.part(ONTOLOGY_FILES).insert({
        rid,
        kind: kind === 'attachment' ? 'attachment' : 'media',
        blobId: info.blobId,
        filename,
        mediaType,
        sizeBytes: info.size,
        createdAt: clock.now(),
        used: true,
      });
      values ??= { ...o.values };
      values[name] = kind === 'attachment' ? { rid } : mediaReference(rid, mediaType);
    }
    out.push(values ? { ...o, values } : o);
  }
  return out;
}
