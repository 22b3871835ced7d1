// The dashboard's views of ontology objects and of the files they hold (docs/ontology-dashboard.md): two list
// routes answering `{items, nextPageToken?}` pages (100 a page, searchable with `q`), and a route that streams a
// file's bytes for the views' links. Loopback or the control token, like every control route.
//   GET /_emulate/platform/ontologies/objects        ?q=&pageToken=&pageSize=
//   GET /_emulate/platform/ontologies/object-files   ?q=&pageToken=&pageSize=
//   GET /_emulate/platform/ontologies/files/{rid}    the bytes, as a download
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { DashboardView, ServiceDeps } from '../../service-module.js';
import type { OntologyObjectRecord } from '../../../store/store.js';
import { CONTROL_ROUTE } from '../../../http/route-config.js';
import { notFound, quote } from '../../../errors.js';
import { ViewListQuery, searchOf, type ViewQuery } from '../../view-pages.js';
import { offsetOf, pageSizeOf, tokenFor } from '../../paging.js';
import { ONTOLOGY_FILES, type OntologyFile } from '../attachments/part.js';
import { openFile } from '../attachments/files.js';
import { objectHolds, pageOfWalk, phraseTest, parseObjectSearch, typesInScope, type TypeInScope, type TypeItems } from './object-scan.js';
import { FILE_CONTENT_PATH, fileRefsOf, fileRows, filePropertiesOf, objectRows, type FileRef } from './object-rows.js';

export const OBJECTS_VIEW = '/_emulate/platform/ontologies/objects';
export const OBJECT_FILES_VIEW = '/_emulate/platform/ontologies/object-files';
const VIEW_PAGE_SIZE = '100';

/** The columns that name an object, first in both views. */
const WHICH_OBJECT = [
  { field: 'ontology', heading: 'Ontology' },
  { field: 'objectType', heading: 'Object type' },
  { field: 'primaryKey', heading: 'Primary key' },
];

export const OBJECT_VIEWS: readonly DashboardView[] = [
  {
    title: 'Objects',
    listPath: OBJECTS_VIEW,
    columns: [...WHICH_OBJECT, { field: 'title', heading: 'Title' }, { field: 'properties', heading: 'Properties' }, { field: 'files', heading: 'Files' }],
    topic: 'ontologies',
  },
  {
    title: 'Object files',
    listPath: OBJECT_FILES_VIEW,
    columns: [
      ...WHICH_OBJECT,
      { field: 'property', heading: 'Property' },
      { field: 'file', heading: 'File' },
      { field: 'kind', heading: 'Kind' },
      { field: 'mediaType', heading: 'Media type' },
      { field: 'sizeBytes', heading: 'Bytes' },
    ],
    topic: 'ontologies',
  },
];

/** Where a page starts and how long it is; a token from another listing or search is InvalidPageToken. */
function pageRequest(query: ViewQuery, key: string) {
  return { size: pageSizeOf(query.pageSize ?? VIEW_PAGE_SIZE), offset: offsetOf(query.pageToken, key), key };
}

const answer = <T>(items: T[], request: { offset: number; size: number; key: string }, more: boolean) => ({
  items,
  ...(more ? { nextPageToken: tokenFor(request.key, request.offset + request.size) } : {}),
});

/** `filename="..."` for ASCII names, with the UTF-8 form beside it (RFC 6266) so any name survives. */
const disposition = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;

export function objectViewRoutes(parent: FastifyInstance, { store }: ServiceDeps): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const listOf = (s: TypeInScope) => store.ontologyObjects.list(s.ontology.rid, s.type.apiName);
  // Objects are read a page at a time from the store unless a search must test them all.
  const objects: TypeItems<OntologyObjectRecord> = {
    all: listOf,
    count: (s) => store.ontologyObjects.countOf(s.ontology.rid, s.type.apiName),
    slice: (s, offset, limit) => store.ontologyObjects.slice(s.ontology.rid, s.type.apiName, offset, limit),
  };

  app.get(OBJECTS_VIEW, { config: CONTROL_ROUTE, schema: { querystring: ViewListQuery } }, async (request) => {
    const q = searchOf(request.query);
    const page = pageRequest(request.query, `ontologies/objects?q=${q}`);
    const search = parseObjectSearch(q);
    const holds = phraseTest(search.text);
    const keep = search.text === '' ? undefined : (o: OntologyObjectRecord) => objectHolds(o, holds);
    const { hits, more } = await pageOfWalk(await typesInScope(store, search), objects, keep, page.offset, page.size);
    return answer(await objectRows(store, hits), page, more);
  });

  app.get(OBJECT_FILES_VIEW, { config: CONTROL_ROUTE, schema: { querystring: ViewListQuery } }, async (request) => {
    const q = searchOf(request.query);
    const page = pageRequest(request.query, `ontologies/object-files?q=${q}`);
    const search = parseObjectSearch(q);
    const scopes = await typesInScope(store, search, (t) => filePropertiesOf(t).length > 0);
    // Files are found by reading the objects of the types that have file properties (once per type here).
    const read = new Map<TypeInScope, FileRef[]>();
    const refsOf = async (s: TypeInScope) => {
      const props = filePropertiesOf(s.type);
      return (
        read.get(s) ??
        read
          .set(
            s,
            (await listOf(s)).flatMap((o) => fileRefsOf(o, props)),
          )
          .get(s)!
      );
    };
    const refs: TypeItems<FileRef> = {
      all: refsOf,
      count: async (s) => (await refsOf(s)).length,
      slice: async (s, offset, limit) => (await refsOf(s)).slice(offset, offset + limit),
    };
    // A search reads the file records once (their names and types are searched too); a plain page reads its own.
    let known: Map<string, OntologyFile> | undefined;
    let keep: ((ref: FileRef, s: TypeInScope) => boolean) | undefined;
    if (search.text !== '') {
      const files = new Map((await store.part(ONTOLOGY_FILES).list()).map((f) => [f.rid, f]));
      const text = search.text;
      keep = (ref) => {
        const f = files.get(ref.rid);
        const fields = [ref.object.key, ref.property, ref.rid, f?.filename ?? '', f?.mediaType ?? ''];
        return fields.some((field) => field.toLowerCase().includes(text));
      };
      known = files;
    }
    const { hits, more } = await pageOfWalk(scopes, refs, keep, page.offset, page.size);
    return answer(await fileRows(store, hits, known), page, more);
  });

  app.get(
    `${FILE_CONTENT_PATH}/:rid`,
    { config: CONTROL_ROUTE, schema: { params: Type.Object({ rid: Type.String({ minLength: 1, maxLength: 256 }) }) } },
    async (request, reply) => {
      const file = await store.part(ONTOLOGY_FILES).get(request.params.rid);
      if (!file) throw notFound('FileNotFound', { rid: request.params.rid }).because(`No attachment or media item has the rid ${quote(request.params.rid)}.`);
      // Always a download, never rendered on the dashboard's origin: an uploaded HTML or SVG file must not run there.
      reply
        .header('content-type', file.mediaType)
        .header('content-length', String(file.sizeBytes))
        .header('content-disposition', disposition(file.filename))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "sandbox; default-src 'none'");
      return reply.send(await openFile(store, file));
    },
  );
}
