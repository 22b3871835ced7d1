// `in` on the primary key (issue 25) is answered from the key index, not a scan of the type; and it answers what
// the scan answered, in the same order, for every value kind the clause may hold.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bearer, buildTestApp, mintToken, type TestApp } from '../helpers/app.js';
import { ACME_SEED } from './fixture.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.app.close();
  t = undefined;
});

async function setUp() {
  t = await buildTestApp({ seed: ACME_SEED });
  const headers = bearer(await mintToken(t.app, 'dev', ['api:ontologies-read']));
  const load = async (where: unknown, extra: Record<string, unknown> = {}) => {
    const res = await t!.app.inject({
      method: 'POST',
      url: '/api/v2/ontologies/acme/objectSets/loadObjects',
      headers,
      payload: { objectSet: { type: 'filter', objectSet: { type: 'base', objectType: 'Employee' }, where }, select: [], ...extra },
    });
    expect(res.statusCode).toBe(200);
    return (res.json().data as Array<{ __primaryKey: number }>).map((o) => o.__primaryKey);
  };
  return { load, list: vi.spyOn(t.store.ontologyObjects, 'list') };
}

describe('a filter on the primary key', () => {
  it('answers `in` from the key index, in store order, without listing the type', async () => {
    const { load, list } = await setUp();
    expect(await load({ type: 'in', field: 'employeeId', value: [4, 2, 99, 2] })).toEqual([2, 4]);
    expect(
      await load({
        type: 'and',
        value: [
          { type: 'in', field: 'employeeId', value: [5, 1, 3] },
          { type: 'eq', field: 'active', value: true },
        ],
      }),
    ).toEqual([1, 5]);
    expect(await load({ type: 'in', field: 'employeeId', value: [] })).toEqual([]);
    expect(await load({ type: 'eq', field: 'employeeId', value: 3 })).toEqual([3]);
    expect(list).not.toHaveBeenCalled();
  });

  it('still scans for `in` on another property', async () => {
    const { load, list } = await setUp();
    expect(await load({ type: 'in', field: 'title', value: ['Engineer'] })).toEqual([2, 3]); // not the key: a scan
    expect(list).toHaveBeenCalled();
  });
});
