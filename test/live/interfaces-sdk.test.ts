// Interfaces (docs/live-ontology.md, "Interfaces") with the typed client (@osdk/client 2.22.0) and raw HTTP:
// the metadata routes, implementsInterfaces in an object type's metadata, an interface's fetchPage across the
// types implementing it (the client maps each object through interfaceToObjectTypeMappings), and `$as`.
import { describe, expect, it } from 'vitest';
import { createClient, type Client } from '@osdk/client';
import { controlToken, liveEmulator } from '../clients/conformance-helpers.js';

const RID = 'ri.ontology.main.ontology.shapes';
const SEED = `
platform:
  users: [{ username: dev }]
  ontologies:
    - api_name: shapes
      display_name: Shapes
      rid: ${RID}
      object_types:
        - { api_name: Person, primary_key: id, title_property: fullName, properties: { id: integer, fullName: string } }
        - { api_name: Place, primary_key: code, title_property: name, properties: { code: string, name: string, size: integer } }
      objects:
        Person: [{ id: 1, fullName: Ada }, { id: 2, fullName: Bo }]
        Place: [{ code: ldn, name: London, size: 9 }]
      interface_types:
        - api_name: Named
          display_name: Named
          properties: { label: string }
          implemented_by: { Person: { label: fullName }, Place: { label: name } }
`;
const url = liveEmulator(SEED);
const osdkMetadata = { extraUserAgent: '' };
const Named = { type: 'interface', apiName: 'Named', osdkMetadata } as never;
const Person = { type: 'object', apiName: 'Person', osdkMetadata } as never;

let token = '';
async function client(): Promise<Client> {
  token = await controlToken(url(), 'dev', ['api:ontologies-read']);
  return createClient(url(), RID, async () => token);
}
const get = async (path: string) =>
  (await fetch(`${url()}${path}`, { headers: { authorization: `Bearer ${token}` } })).json() as Promise<Record<string, unknown>>;

describe('interfaces', () => {
  it('metadata: the interface, its implementers, and implementsInterfaces on the object type', async () => {
    await client();
    const list = (await get('/api/v2/ontologies/shapes/interfaceTypes')) as { data: Array<Record<string, unknown>> };
    expect(list.data.map((i) => i.apiName)).toEqual(['Named']);
    const named = await get('/api/v2/ontologies/shapes/interfaceTypes/Named');
    expect(named.implementedByObjectTypes).toEqual(['Person', 'Place']);
    expect((named.properties as Record<string, { dataType: unknown }>).label!.dataType).toEqual({ type: 'string' });
    const full = await get('/api/v2/ontologies/shapes/objectTypes/Place/fullMetadata');
    expect(full.implementsInterfaces).toEqual(['Named']);
    expect(full.implementsInterfaces2).toEqual({ Named: { properties: { label: 'name' }, propertiesV2: {}, links: {} } });
    const missing = await fetch(`${url()}/api/v2/ontologies/shapes/interfaceTypes/Nope`, { headers: { authorization: `Bearer ${token}` } });
    expect(missing.status).toBe(404);
  });

  it("an interface's fetchPage returns every implementer's objects through the interface; $as views an object as it", async () => {
    const c = await client();
    const page = await (c(Named) as unknown as { fetchPage(): Promise<{ data: Array<Record<string, unknown>> }> }).fetchPage();
    expect(page.data.map((o) => [o.$objectType, o.$primaryKey, o.label]).sort()).toEqual([
      ['Person', 1, 'Ada'],
      ['Person', 2, 'Bo'],
      ['Place', 'ldn', 'London'],
    ]);
    const ada = (await (c(Person) as unknown as { fetchOne(pk: number): Promise<{ $as(i: unknown): Record<string, unknown> }> }).fetchOne(1))!;
    expect(ada.$as(Named).label).toBe('Ada');
  });
});
