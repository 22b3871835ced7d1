// The ontologies service's seed key `ontologies` (docs/contracts.md §5, §9). A seed is compiled once and the
// records reused on reset (seed-compile.ts); the export writes definitions and current objects back
// (seed-export.ts). An import replaces an ontology whole, never piece by piece: its objects, links and actions
// name its own types, so mixing two versions could leave a reference that resolves to neither. It replaces the
// config's ontology with the same api_name and the one with the same rid.
import { Type } from '@sinclair/typebox';
import type { SeedCodec } from '../../seed/codec.js';
import { OntologySeed } from './seed-schema.js';
import { compiledOntology, ontologyProblems, ontologyRid } from './seed-compile.js';
import { ontologySeedOf } from './seed-export.js';
import { resolveSeedFiles, storeSeedFiles } from './attachments/seed-files.js';
import { interfaceProblems } from './interfaces/check.js';
import { ONTOLOGY_LIMIT_KEYS } from './attachments/caps.js';

/** An ontology with two linked object types, objects, a typed query and an action: what the generated tests seed. */
const ONTOLOGY_EXAMPLE = [
  {
    api_name: 'example-ontology',
    display_name: 'Example',
    queries: [{ api_name: 'greet', result: 'hello' }],
    object_types: [
      {
        api_name: 'Office',
        primary_key: 'officeId',
        properties: { officeId: 'string', city: 'string' },
      },
      {
        api_name: 'Employee',
        primary_key: 'employeeId',
        properties: { employeeId: 'integer', name: 'string', officeId: 'string' },
        links: [{ api_name: 'office', target: 'Office', foreign_key: 'officeId', reverse: 'employees' }],
      },
    ],
    objects: {
      Office: [{ officeId: 'ldn', city: 'London' }],
      Employee: [{ employeeId: 1, name: 'Ada', officeId: 'ldn' }],
    },
    action_types: [],
  },
] as unknown as OntologySeed[];

export const ontologiesSeed: SeedCodec<OntologySeed[]> = {
  key: 'ontologies',
  schema: Type.Array(OntologySeed, { default: [] }),
  limits: ONTOLOGY_LIMIT_KEYS,
  example: ONTOLOGY_EXAMPLE,
  check: (ontologies, path, _platform, source) => [
    ...resolveSeedFiles(ontologies, path, source),
    ...ontologyProblems(ontologies),
    ...interfaceProblems(ontologies, path),
  ],
  async apply(ontologies, { store, clock, warn }) {
    const skipped = (path: string, what: string) => warn(`${path}: duplicate ${what} skipped (the first definition wins)`);
    for (const [i, o] of ontologies.entries()) {
      const queries = new Map<string, Buffer>();
      for (const [j, q] of o.queries.entries()) {
        if (queries.has(q.api_name)) skipped(`platform.ontologies[${i}].queries[${j}]`, `api_name "${q.api_name}"`);
        else queries.set(q.api_name, Buffer.from(JSON.stringify(q.result) ?? '')); // serialized once: execute sends these bytes
      }
      const model = compiledOntology(o, i);
      const rid = ontologyRid(o);
      const inserted = await store.ontologies.insert({
        rid,
        apiName: o.api_name,
        displayName: o.display_name,
        description: o.description ?? '',
        queries,
        queryTypes: model.queryTypes,
        objectTypes: model.objectTypes,
        actionTypes: model.actionTypes,
      });
      if (!inserted) skipped(`platform.ontologies[${i}]`, `api_name or rid of "${o.api_name}"`);
      else {
        await store.ontologyObjects.insertObjects(rid, await storeSeedFiles(store, clock, rid, model.objectTypes, model.objects));
        for (const [linkId, pairs] of model.pairs) await store.ontologyObjects.insertPairs(rid, linkId, pairs);
      }
    }
  },
  async export({ store, dropped }) {
    const lines: string[] = [];
    const ontologies = [];
    for (const o of await store.ontologies.list()) ontologies.push(await ontologySeedOf(store, o, lines));
    for (const line of lines) dropped(line);
    return ontologies as unknown as OntologySeed[];
  },
  merge: (base, imported) => [
    ...imported,
    ...base.filter((o) => !imported.some((i) => i.api_name === o.api_name || (i.rid !== undefined && i.rid === ontologyRid(o)))),
  ],
  summary: async (store) => [{ one: 'ontology', many: 'ontologies', count: await store.ontologies.count() }],
};
