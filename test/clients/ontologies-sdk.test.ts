// Conformance: the platform's TypeScript SDK (@osdk/client createPlatformClient + @osdk/foundry.ontologies,
// pinned in package.json) against a live server. list, get and execute are public: no preview needed.
import { describe, expect, it } from 'vitest';
import { createPlatformClient } from '@osdk/client';
import { OntologiesV2, Queries } from '@osdk/foundry.ontologies';
import { controlToken, liveEmulator } from './conformance-helpers.js';

const url = liveEmulator(`
platform:
  users: [{ username: dev }]
  ontologies:
    - api_name: ontology-fleet
      rid: ri.ontology.main.ontology.fleet
      display_name: Fleet
      description: Vehicles and trips
      queries:
        - { api_name: activeVehicles, result: { value: 17 } }
        - { api_name: tripsByDriver, result: { value: [{ driver: ana, trips: 3 }] } }
    - { api_name: ontology-other, display_name: Other }
`);

const client = async (scopes = ['api:ontologies-read']) => {
  const token = await controlToken(url(), 'dev', scopes);
  return createPlatformClient(url(), async () => token);
};

describe('platform SDK: ontologies', () => {
  it('OntologiesV2.list and get return OntologyV2 records', async () => {
    const c = await client();
    const list = await OntologiesV2.list(c);
    expect(list.data.map((o) => o.apiName)).toEqual(['ontology-fleet', 'ontology-other']);
    expect(list.data[0]).toEqual({
      apiName: 'ontology-fleet',
      displayName: 'Fleet',
      description: 'Vehicles and trips',
      rid: 'ri.ontology.main.ontology.fleet',
    });
    expect(list.data[1]!.description).toBe('');
    expect(await OntologiesV2.get(c, 'ri.ontology.main.ontology.fleet')).toEqual(list.data[0]);
  });

  it('Queries.execute returns the seeded result, by apiName or rid', async () => {
    const c = await client();
    expect(await Queries.execute(c, 'ontology-fleet', 'activeVehicles', { parameters: {} })).toEqual({ value: 17 });
    const trips = await Queries.execute(c, 'ri.ontology.main.ontology.fleet', 'tripsByDriver', { parameters: { driver: 'ana' } });
    expect(trips.value).toEqual([{ driver: 'ana', trips: 3 }]);
  });

  it('throws PalantirApiError 404 for an unknown rid, query or api name', async () => {
    const c = await client();
    const unknownRid = await OntologiesV2.get(c, 'ri.ontology.main.ontology.missing').then(
      () => ({}) as Record<string, unknown>,
      (e: Record<string, unknown>) => e,
    );
    expect(unknownRid.constructor.name).toBe('PalantirApiError');
    expect(unknownRid).toMatchObject({
      statusCode: 404,
      errorCode: 'NOT_FOUND',
      errorName: 'OntologyNotFound',
      parameters: { ontologyRid: 'ri.ontology.main.ontology.missing' },
    });
    expect(unknownRid.errorInstanceId).toMatch(/^[0-9a-f-]{36}$/);
    await expect(Queries.execute(c, 'ri.ontology.main.ontology.missing', 'activeVehicles', { parameters: {} })).rejects.toMatchObject({
      statusCode: 404,
      errorName: 'OntologyNotFound',
      parameters: { ontologyRid: 'ri.ontology.main.ontology.missing' },
    });
    await expect(Queries.execute(c, 'ontology-fleet', 'nope', { parameters: {} })).rejects.toMatchObject({
      statusCode: 404,
      errorCode: 'NOT_FOUND',
      errorName: 'QueryNotFound',
      parameters: { query: 'nope' },
    });
  });

  it('surfaces the missing scope as 403 ApiUsageDenied', async () => {
    const c = await client(['api:ontologies-write']);
    await expect(OntologiesV2.list(c)).rejects.toMatchObject({
      statusCode: 403,
      errorCode: 'PERMISSION_DENIED',
      errorName: 'ApiUsageDenied',
      parameters: { missingScope: 'api:ontologies-read' },
    });
  });
});
