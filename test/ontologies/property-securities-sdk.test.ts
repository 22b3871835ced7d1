// Property security metadata (docs/live-ontology.md, "Property security metadata"): the typed client's
// `$loadPropertySecurityMetadata` (@osdk/client 2.22.0 sends `loadPropertySecurities: true` on loadObjects and
// reads `propertySecurities`) and the platform SDK's OntologyObjectSets.load / loadMultipleObjectTypes
// (@osdk/foundry.ontologies 2.57.0; it has no route of its own for property securities). Every value is answered
// as unrestricted: one marking summary with no markings. Values read the same as without the flag.
import { describe, expect, it } from 'vitest';
import { createClient, createPlatformClient, type Client } from '@osdk/client';
import { OntologyObjectSets } from '@osdk/foundry.ontologies';
import { controlToken, liveEmulator } from '../clients/conformance-helpers.js';
import { ACME_RID, ACME_SEED } from './fixture.js';
import { Employee } from '../clients/osdk-typed-definitions.js';

const url = liveEmulator(ACME_SEED);
const UNMARKED = { type: 'propertyMarkings', conjunctive: [], disjunctive: [], containerConjunctive: [], containerDisjunctive: [] };

type Page = { data: Array<Record<string, unknown> & { $propertySecurities?: Record<string, unknown> }> };
type Fetcher = { fetchPage(a?: Record<string, unknown>): Promise<Page>; fetchOne(pk: number, a?: Record<string, unknown>): Promise<Page['data'][number]> };

async function token() {
  return controlToken(url(), 'dev', ['api:ontologies-read']);
}

describe('$loadPropertySecurityMetadata', () => {
  it('the typed client gets unrestricted securities for every property and the same values', async () => {
    const t = await token();
    const c: Client = createClient(url(), ACME_RID, async () => t);
    const employees = c(Employee) as unknown as Fetcher;
    const plain = await employees.fetchPage({ $orderBy: { employeeId: 'asc' } });
    const secured = await employees.fetchPage({ $orderBy: { employeeId: 'asc' }, $loadPropertySecurityMetadata: true });
    expect(secured.data.length).toBe(5);
    const alice = secured.data[0]!;
    expect(alice.fullName).toBe('Alice Adams');
    expect(alice.skills).toEqual(['go', 'rust', 'sql']);
    expect(alice.address).toEqual(plain.data[0]!.address);
    expect(alice.$primaryKey).toBe(1);
    expect(alice.$propertySecurities!.fullName).toEqual([UNMARKED]);
    expect(alice.$propertySecurities!.skills).toEqual([[UNMARKED], [UNMARKED], [UNMARKED]]);
    const values = (o: Record<string, unknown>) => Object.fromEntries(Object.entries({ ...o }).filter(([k]) => !k.startsWith('$')));
    for (const [i, o] of secured.data.entries()) expect(values(o)).toEqual(values(plain.data[i]!));
    expect(Object.keys(values(alice)).length).toBeGreaterThan(10);
    expect(plain.data[0]!.$propertySecurities).toBeUndefined();

    const one = await employees.fetchOne(3, { $loadPropertySecurityMetadata: true });
    expect(one.fullName).toBe('Carol Chen');
    expect(one.$propertySecurities!.salary).toEqual([UNMARKED]);
  });

  it('the platform SDK sees SecuredPropertyValues and the one security entry', async () => {
    const t = await token();
    const c = createPlatformClient(url(), async () => t);
    const objectSet = { type: 'filter', objectSet: { type: 'base', objectType: 'Employee' }, where: { type: 'eq', field: 'employeeId', value: 4 } } as const;
    const res = await OntologyObjectSets.load(c, 'acme', { objectSet, select: ['fullName', 'skills'], selectV2: [], loadPropertySecurities: true });
    expect(res.propertySecurities).toEqual([
      { disjunction: [{ type: 'propertyMarkingSummary', conjunctive: [], disjunctive: [], containerConjunctive: [], containerDisjunctive: [] }] },
    ]);
    expect(res.data[0]).toMatchObject({ fullName: { value: 'Dan Diaz', propertySecurityIndex: 0 }, skills: [], __primaryKey: 4, __apiName: 'Employee' });

    const multi = await OntologyObjectSets.loadMultipleObjectTypes(c, 'acme', { objectSet, select: ['skills'], selectV2: [], loadPropertySecurities: false });
    expect(multi.propertySecurities).toEqual([]);
    expect(multi.data[0]!.skills).toEqual([]);
    const withSkills = await OntologyObjectSets.loadMultipleObjectTypes(c, 'acme', {
      objectSet: { ...objectSet, where: { ...objectSet.where, value: 2 } },
      select: ['skills'],
      selectV2: [],
      loadPropertySecurities: true,
    });
    expect(withSkills.data[0]!.skills).toEqual([
      { value: 'go', propertySecurityIndex: 0 },
      { value: 'typescript', propertySecurityIndex: 0 },
    ]);
    expect(withSkills.propertySecurities).toHaveLength(1);

    const bad = await fetch(`${url()}/api/v2/ontologies/acme/objectSets/loadObjects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' },
      body: JSON.stringify({ objectSet, loadPropertySecurities: 'yes' }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ errorCode: 'INVALID_ARGUMENT', errorName: 'InvalidArgument', parameters: { field: 'loadPropertySecurities' } });
  });
});
