// Derived properties (docs/live-ontology.md, "Derived properties") with the typed client's withProperties
// (@osdk/client 2.22.0): a property selected across a link, a count and a max of linked objects; a filter on a
// derived property is a 400 that names it.
import { describe, expect, it } from 'vitest';
import { createClient } from '@osdk/client';
import { controlToken, liveEmulator } from '../clients/conformance-helpers.js';
import { ACME_RID, ACME_SEED } from '../ontologies/fixture.js';
import { Employee } from '../clients/osdk-typed-definitions.js';

const url = liveEmulator(ACME_SEED);

type Builder = {
  pivotTo(link: string): Builder;
  aggregate(a: string): unknown;
  selectProperty(p: string): unknown;
};
type WithProps = { fetchPage(): Promise<{ data: Array<Record<string, unknown>> }> };

describe('withProperties', () => {
  it('selects a linked property, counts and takes a max across a link', async () => {
    const token = await controlToken(url(), 'dev', ['api:ontologies-read']);
    const c = createClient(url(), ACME_RID, async () => token);
    const set = (c(Employee) as unknown as { withProperties(d: Record<string, (b: Builder) => unknown>): WithProps }).withProperties({
      officeName: (b) => b.pivotTo('office').selectProperty('name'),
      mentorCount: (b) => b.pivotTo('mentors').aggregate('$count'),
      topMentorSalary: (b) => b.pivotTo('mentors').aggregate('salary:max'),
    });
    const page = await set.fetchPage();
    const byId = new Map(page.data.map((e) => [e.employeeId, e]));
    expect(byId.get(1)).toMatchObject({ officeName: 'New York', mentorCount: 0 });
    expect(byId.get(3)).toMatchObject({ officeName: 'London', mentorCount: 2, topMentorSalary: 200000 });
    expect(byId.get(5)!.officeName).toBeUndefined();

    const refused = await fetch(`${url()}/api/v2/ontologies/acme/objectSets/loadObjects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        objectSet: {
          type: 'withProperties',
          objectSet: { type: 'base', objectType: 'Employee' },
          derivedProperties: { x: { type: 'add', properties: [] } },
        },
      }),
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('add');
  });
});
