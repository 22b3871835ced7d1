// Differential test of object-set filtering: random `where` trees (fast-check) over a seeded object type,
// each evaluated by the service (loadObjects over HTTP, in process) and by the plain reference filter below;
// the objects returned must be the same, in the same order.
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { bearer, buildTestApp, mintToken } from '../helpers/app.js';

type Obj = { id: number; n?: number; s?: string; d?: number; day?: string; flag?: boolean; tags?: string[] };
type Clause = { type: string; field?: string; value?: unknown };

const WORDS = ['alpha', 'Beta', 'gamma', 'delta', 'beta'];
const DAYS = ['2020-01-01', '2021-06-15', '2021-12-31', '2024-02-29'];

// A fixed pseudo-random population (a small LCG), so failures reproduce.
function population(count: number): Obj[] {
  let seed = 7;
  const next = (m: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % m);
  return Array.from({ length: count }, (_, id) => {
    const o: Obj = { id };
    if (next(5)) o.n = next(21);
    if (next(5)) o.s = Array.from({ length: 1 + next(3) }, () => WORDS[next(WORDS.length)]).join(next(2) ? ' ' : '-');
    if (next(5)) o.d = (next(21) - 10) / 2;
    if (next(5)) o.day = DAYS[next(DAYS.length)];
    if (next(5)) o.flag = next(2) === 1;
    if (next(3)) o.tags = Array.from({ length: next(4) }, () => ['x', 'y', 'z'][next(3)]!);
    return o;
  });
}

// ---- the reference: plain code, written from docs/contracts.md §9's clause list, sharing nothing with the service ----
const termsOf = (s: string) =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
function reference(o: Obj, c: Clause): boolean {
  const v = c.field === undefined ? undefined : (o as Record<string, unknown>)[c.field];
  switch (c.type) {
    case 'and':
      return (c.value as Clause[]).every((x) => reference(o, x));
    case 'or':
      return (c.value as Clause[]).some((x) => reference(o, x));
    case 'not':
      return !reference(o, c.value as Clause);
    case 'isNull':
      return (v === undefined) === c.value;
    case 'eq':
      return v !== undefined && v === c.value;
    case 'in':
      return v !== undefined && (c.value as unknown[]).includes(v);
    case 'gt':
      return v !== undefined && (v as number) > (c.value as number);
    case 'gte':
      return v !== undefined && (v as number) >= (c.value as number);
    case 'lt':
      return v !== undefined && (v as number) < (c.value as number);
    case 'lte':
      return v !== undefined && (v as number) <= (c.value as number);
    case 'startsWith':
      return typeof v === 'string' && v.startsWith(c.value as string);
    case 'contains':
      return Array.isArray(v) && v.includes(c.value);
    case 'containsAnyTerm': {
      const want = termsOf(c.value as string);
      return typeof v === 'string' && want.some((t) => termsOf(v).includes(t));
    }
    case 'containsAllTerms': {
      const want = termsOf(c.value as string);
      return typeof v === 'string' && want.length > 0 && want.every((t) => termsOf(v).includes(t));
    }
    case 'containsAllTermsInOrder': {
      const want = termsOf(c.value as string).join(' ');
      return typeof v === 'string' && want.length > 0 && ` ${termsOf(v).join(' ')} `.includes(` ${want} `);
    }
    default:
      throw new Error(`no reference for ${c.type}`);
  }
}

// ---- random clauses ----
const compare = (field: string, value: fc.Arbitrary<unknown>) =>
  fc.record({ type: fc.constantFrom('eq', 'gt', 'gte', 'lt', 'lte'), field: fc.constant(field), value });
const text = fc.array(fc.constantFrom(...WORDS, 'omega', 'ALPHA'), { minLength: 1, maxLength: 2 }).map((w) => w.join(' '));
const leaf: fc.Arbitrary<Clause> = fc.oneof(
  compare('n', fc.integer({ min: -1, max: 21 })),
  fc.record({ type: fc.constant('eq'), field: fc.constant('id'), value: fc.integer({ min: -1, max: 301 }) }), // the key-index path
  compare(
    'd',
    fc.integer({ min: -12, max: 12 }).map((x) => x / 2),
  ),
  compare('day', fc.constantFrom(...DAYS, '2021-01-01')),
  fc.record({ type: fc.constant('eq'), field: fc.constant('flag'), value: fc.boolean() }),
  fc.record({ type: fc.constant('isNull'), field: fc.constantFrom('n', 's', 'd', 'day', 'flag', 'tags'), value: fc.boolean() }),
  fc.record({ type: fc.constant('in'), field: fc.constant('n'), value: fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 4 }) }),
  fc.record({ type: fc.constant('startsWith'), field: fc.constant('s'), value: fc.constantFrom('al', 'Be', 'beta', 'gamma-', 'x') }),
  fc.record({ type: fc.constantFrom('containsAnyTerm', 'containsAllTerms', 'containsAllTermsInOrder'), field: fc.constant('s'), value: text }),
  fc.record({ type: fc.constant('contains'), field: fc.constant('tags'), value: fc.constantFrom('x', 'y', 'z', 'w') }),
);
const { tree } = fc.letrec<{ tree: Clause }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ type: fc.constantFrom('and', 'or'), value: fc.array(tie('tree'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ type: fc.constant('not'), value: tie('tree') }),
  ),
}));

describe('where: the service against a reference filter', () => {
  const objects = population(300);
  let app: FastifyInstance;
  let headers: Record<string, string>;

  beforeAll(async () => {
    const seed = {
      platform: {
        users: [{ username: 'dev' }],
        ontologies: [
          {
            api_name: 'diff',
            display_name: 'Diff',
            object_types: [
              {
                api_name: 'Thing',
                primary_key: 'id',
                properties: { id: 'integer', n: 'integer', s: 'string', d: 'double', day: 'date', flag: 'boolean', tags: { type: 'array', subType: 'string' } },
              },
            ],
            objects: { Thing: objects },
          },
        ],
      },
    };
    ({ app } = await buildTestApp({ seed }));
    headers = bearer(await mintToken(app, 'dev', ['api:ontologies-read']));
  });

  it('agrees on 300 random where trees', async () => {
    let nonTrivial = 0;
    await fc.assert(
      fc.asyncProperty(tree, async (where) => {
        const res = await app.inject({
          method: 'POST',
          url: '/api/v2/ontologies/diff/objectSets/loadObjects',
          headers,
          payload: { objectSet: { type: 'filter', objectSet: { type: 'base', objectType: 'Thing' }, where }, select: [], pageSize: 10000, excludeRid: true },
        });
        expect(res.statusCode).toBe(200);
        const got = (res.json().data as Array<{ id: number }>).map((o) => o.id);
        const want = objects.filter((o) => reference(o, where)).map((o) => o.id);
        if (want.length > 0 && want.length < objects.length) nonTrivial++;
        expect(got).toEqual(want);
      }),
      { numRuns: 300, seed: 20261122 },
    );
    // The trees must discriminate: most select some objects but not all.
    expect(nonTrivial).toBeGreaterThan(150);
  });
});
