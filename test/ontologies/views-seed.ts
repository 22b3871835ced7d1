// The seed of the dashboard's object views tests (HTTP: dashboard-views.test.ts; browser:
// test/browser/ontology-objects.test.ts): 250 products in `shop`, the first holding a PDF attachment and a PNG
// media item written beside the seed, then 3 employees in `hr`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PDF = Buffer.from('%PDF-1.4\nthe manual\n');
export const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
export const PRODUCTS = 250;
export const sku = (i: number) => `p${String(i).padStart(4, '0')}`;

/** The seed document; the files are read from `dir`. */
export function viewsSeed(dir: string) {
  const products = Array.from({ length: PRODUCTS }, (_, n) => {
    const i = n + 1;
    return { sku: sku(i), name: `Widget ${i}`, price: i * 1.5, tags: i % 10 === 0 ? ['red', 'big'] : ['blue'] };
  });
  Object.assign(products[0]!, { manual: { from: join(dir, 'manual.pdf') }, photo: { from: join(dir, 'photo.png') } });
  return {
    platform: {
      users: [{ username: 'dev' }],
      ontologies: [
        {
          api_name: 'shop',
          display_name: 'Shop',
          object_types: [
            {
              api_name: 'Product',
              primary_key: 'sku',
              title_property: 'name',
              properties: {
                sku: 'string',
                name: 'string',
                price: 'double',
                tags: { type: 'array', subType: { type: 'string' } },
                manual: 'attachment',
                photo: 'mediaReference',
              },
            },
          ],
          objects: { Product: products },
        },
        {
          api_name: 'hr',
          display_name: 'HR',
          object_types: [{ api_name: 'Employee', primary_key: 'id', title_property: 'fullName', properties: { id: 'integer', fullName: 'string' } }],
          objects: { Employee: [1, 2, 3].map((id) => ({ id, fullName: `Person ${id}` })) },
        },
      ],
    },
  };
}

/** Writes the files and the seed to a new temporary folder; returns the seed's path. */
export function writeViewsSeed(): string {
  const dir = mkdtempSync(join(tmpdir(), 'objects-view-'));
  writeFileSync(join(dir, 'manual.pdf'), PDF);
  writeFileSync(join(dir, 'photo.png'), PNG);
  // JSON is YAML: the seed file is written as JSON.
  writeFileSync(join(dir, 'seed.yaml'), JSON.stringify(viewsSeed(dir)));
  return join(dir, 'seed.yaml');
}
