// The ontology bench's data: N objects of one type, the same for the emulator (as a seed file) and the raw
// baseline (generated in process), and the requests both are sent.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ONTOLOGY = 'bench';
export const OBJECT_TYPE = 'Item';
export const CATEGORIES = 10;

export interface Item {
  id: number;
  name: string;
  category: string;
  price: number;
  stock: number;
  active: boolean;
}

export function items(count: number): Item[] {
  return Array.from({ length: count }, (_, id) => ({
    id,
    name: `item ${id}`,
    category: `c${id % CATEGORIES}`,
    price: (id * 37) % 1000,
    stock: id % 50,
    active: id % 3 !== 0,
  }));
}

/** The seed as JSON text (JSON is YAML): writing 100,000 objects through a YAML serializer would cost seconds. */
export function writeOntologySeed(count: number): string {
  const doc = {
    platform: {
      users: [{ username: 'bench' }],
      ontologies: [
        {
          api_name: ONTOLOGY,
          display_name: 'Bench',
          rid: 'ri.ontology.main.ontology.bench',
          object_types: [
            {
              api_name: OBJECT_TYPE,
              primary_key: 'id',
              title_property: 'name',
              properties: { id: 'integer', name: 'string', category: 'string', price: 'integer', stock: 'integer', active: 'boolean' },
            },
          ],
          objects: { [OBJECT_TYPE]: items(count) },
        },
      ],
    },
  };
  const file = join(mkdtempSync(join(tmpdir(), 'bench-ontology-')), 'platform.yaml');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

/** The three-clause filter both servers evaluate: category = c3 and price >= 500 and active. */
export const THREE_CLAUSE_WHERE = {
  type: 'and',
  value: [
    { type: 'eq', field: 'category', value: 'c3' },
    { type: 'gte', field: 'price', value: 500 },
    { type: 'eq', field: 'active', value: true },
  ],
};
export const PAGE_SIZE = 100;

export const loadObjectsBody = (where: unknown, pageSize: number) =>
  JSON.stringify({
    objectSet: { type: 'filter', objectSet: { type: 'base', objectType: OBJECT_TYPE }, where },
    select: [],
    selectV2: [],
    pageSize,
    excludeRid: true,
  });
