// The ontology object repository and the typed ontology record, as a contract every store meets: the memory
// store in the first pass, PostgreSQL in the second (test/helpers/store.ts). On PostgreSQL, edits racing from
// two connections (what two instances would do) are checked too.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OntologyRecord, Store } from '../../src/store/store.js';
import type { ObjectTypeDef } from '../../src/store/ontology-model.js';
import { TEST_STORE, freshSchemaUrl, openTestStore } from '../helpers/store.js';

let store: Store;
beforeEach(async () => {
  store = await openTestStore();
});
afterEach(() => store.close());

const kind = TEST_STORE ? 'postgres' : 'memory';
const obj = (key: number | string, values: Record<string, unknown> = {}) => ({
  objectType: 'T',
  primaryKey: key,
  key: String(key),
  values: { id: key, ...values },
});
const keys = (list: readonly { key: string }[]) => list.map((o) => o.key);

describe(`ontology objects (${kind} store)`, () => {
  it('inserts in order, skips taken keys (also within one batch), and finds by key', async () => {
    const repo = store.ontologyObjects;
    expect(await repo.insertObjects('o', [obj(2), obj(1), obj(2, { dup: true })])).toEqual([obj(2, { dup: true })]);
    expect(await repo.insertObjects('o', [obj(3), obj(1, { again: true })])).toEqual([obj(1, { again: true })]);
    expect(keys(await repo.list('o', 'T'))).toEqual(['2', '1', '3']);
    expect(await repo.get('o', 'T', '1')).toEqual(obj(1));
    expect(await repo.get('other', 'T', '1')).toBeUndefined();
    expect(await repo.get('o', 'T', 'x\u0000y')).toBeUndefined();
    expect(await repo.list('o', 'U')).toEqual([]);
    expect(await repo.count()).toBe(3);
  });

  it('applies edits all or none, each checked against the earlier ones; a dry run changes nothing', async () => {
    const repo = store.ontologyObjects;
    await repo.insertObjects('o', [obj(1, { a: 1 })]);
    const refused = await repo.applyEdits('o', [
      { kind: 'modify', objectType: 'T', primaryKey: 1, set: { a: 2 } },
      { kind: 'create', objectType: 'T', primaryKey: 2, values: { id: 2 } },
      { kind: 'addPair', linkId: 'L', a: '1', b: '2' },
      { kind: 'create', objectType: 'T', primaryKey: 1, values: { id: 1 } },
    ]);
    expect(refused).toEqual({ ok: false, problem: 'exists', objectType: 'T', primaryKey: 1, editIndex: 3 });
    expect(await repo.list('o', 'T')).toEqual([obj(1, { a: 1 })]);
    expect(await repo.paired('o', 'L', 'a', '1')).toEqual([]);

    expect(
      await repo.applyEdits('o', [
        { kind: 'delete', objectType: 'T', primaryKey: 1 },
        { kind: 'modify', objectType: 'T', primaryKey: 1, set: {} },
      ]),
    ).toMatchObject({ ok: false, problem: 'missing', editIndex: 1 });
    expect(await repo.get('o', 'T', '1')).toEqual(obj(1, { a: 1 }));
    expect(
      await repo.applyEdits(
        'o',
        [
          { kind: 'create', objectType: 'T', primaryKey: 3, values: { id: 3 } },
          { kind: 'addPair', linkId: 'L', a: '1', b: '3' },
        ],
        { dryRun: true },
      ),
    ).toEqual({ ok: true });
    expect(await repo.get('o', 'T', '3')).toBeUndefined();
    expect(await repo.paired('o', 'L', 'a', '1')).toEqual([]);
    expect(await repo.applyEdits('o', [{ kind: 'create', objectType: 'T', primaryKey: 1, values: { id: 1 } }], { dryRun: true })).toMatchObject({
      ok: false,
      problem: 'exists',
    });

    const ok = await repo.applyEdits('o', [
      { kind: 'create', objectType: 'T', primaryKey: 2, values: { id: 2, a: 5 } },
      { kind: 'modify', objectType: 'T', primaryKey: 2, set: { a: null, b: 'x' } },
      { kind: 'addPair', linkId: 'L', a: '1', b: '2' },
      { kind: 'addPair', linkId: 'L', a: '1', b: '2' },
    ]);
    expect(ok).toEqual({ ok: true });
    expect((await repo.get('o', 'T', '2'))!.values).toEqual({ id: 2, b: 'x' });
    expect(await repo.paired('o', 'L', 'b', '2')).toEqual(['1']);
    expect(await repo.paired('o', 'L', 'a', '1')).toEqual(['2']);
    // A modify keeps the object's place, so does a delete and re-create in one action; in two, it goes last.
    await repo.applyEdits('o', [{ kind: 'modify', objectType: 'T', primaryKey: 1, set: { a: 9 } }]);
    expect(keys(await repo.list('o', 'T'))).toEqual(['1', '2']);
    await repo.applyEdits('o', [
      { kind: 'delete', objectType: 'T', primaryKey: 1 },
      { kind: 'create', objectType: 'T', primaryKey: 1, values: { id: 1, b: 1 } },
    ]);
    expect(await repo.list('o', 'T')).toEqual([obj(1, { b: 1 }), obj(2, { b: 'x' })]);
    await repo.applyEdits('o', [{ kind: 'delete', objectType: 'T', primaryKey: 1 }]);
    await repo.applyEdits('o', [{ kind: 'create', objectType: 'T', primaryKey: 1, values: { id: 1 } }]);
    expect(keys(await repo.list('o', 'T'))).toEqual(['2', '1']);
    await repo.applyEdits('o', [{ kind: 'removePair', linkId: 'L', a: '1', b: '2' }]);
    expect(await repo.paired('o', 'L', 'a', '1')).toEqual([]);
  });

  it('finds objects by a property value (compared as text), following every write', async () => {
    const repo = store.ontologyObjects;
    await repo.insertObjects('o', [obj(1, { team: 'a' }), obj(2, { team: 'b' }), obj(3, { team: 'a' }), obj(4), obj(5, { team: 7 }), obj(6, { team: 1e21 })]);
    const by = async (...values: string[]) => keys(await repo.withValues('o', 'T', 'team', new Set(values)));
    expect(await by('a')).toEqual(['1', '3']);
    expect(await by('b', 'a')).toEqual(['1', '2', '3']);
    expect(await by('7')).toEqual(['5']);
    expect(await by(String(1e21))).toEqual(['6']);
    await repo.applyEdits('o', [
      { kind: 'modify', objectType: 'T', primaryKey: 1, set: { team: 'b' } },
      { kind: 'create', objectType: 'T', primaryKey: 9, values: { id: 9, team: 'a' } },
    ]);
    expect(await by('a')).toEqual(['3', '9']);
    expect(await by('b')).toEqual(['1', '2']);
    expect(await by('none')).toEqual([]);
    expect(await by()).toEqual([]);
  });

  it('seeds large batches, and a reset empties objects and pairs', async () => {
    const repo = store.ontologyObjects;
    const many = Array.from({ length: 12_000 }, (_, i) => obj(i));
    expect(await repo.insertObjects('o', many)).toEqual([]);
    await repo.insertPairs(
      'o',
      'L',
      Array.from({ length: 6000 }, (_, i): [string, string] => [String(i), String(i + 1)]),
    );
    expect(await repo.count()).toBe(12_000);
    expect(keys(await repo.list('o', 'T')).slice(0, 3)).toEqual(['0', '1', '2']);
    expect(await repo.paired('o', 'L', 'b', '5999')).toEqual(['5998']);
    await store.clear();
    expect(await repo.count()).toBe(0);
    expect(await repo.paired('o', 'L', 'b', '5999')).toEqual([]);
  });

  it('puts (creates or replaces in place), deletes with the pairs naming the key, and lists pairs grouped by a', async () => {
    const repo = store.ontologyObjects;
    await repo.insertObjects('o', [obj(1, { a: 1 }), obj(2)]);
    expect(await repo.putObject('o', obj(1, { b: 2 }))).toEqual({ created: false });
    expect(await repo.putObject('o', obj(3))).toEqual({ created: true });
    expect(await repo.list('o', 'T')).toEqual([obj(1, { b: 2 }), obj(2), obj(3)]);
    await repo.insertPairs('o', 'L', [
      ['1', 'x'],
      ['2', 'y'],
      ['1', 'z'],
    ]);
    await repo.insertPairs('o', 'M', [['q', '1']]);
    expect(await repo.pairsOf('o', 'L')).toEqual([
      ['1', 'x'],
      ['1', 'z'],
      ['2', 'y'],
    ]);
    expect(
      await repo.deleteObject('o', 'T', '1', [
        { linkId: 'L', side: 'a' },
        { linkId: 'M', side: 'b' },
      ]),
    ).toEqual(obj(1, { b: 2 }));
    expect(await repo.pairsOf('o', 'L')).toEqual([['2', 'y']]);
    expect(await repo.pairsOf('o', 'M')).toEqual([]);
    expect(await repo.deleteObject('o', 'T', '1', [{ linkId: 'L', side: 'a' }])).toBeUndefined();
    expect(keys(await repo.list('o', 'T'))).toEqual(['2', '3']);
  });

  it('keeps a typed ontology record exactly: Maps in order, query bytes, definitions', async () => {
    const objectType: ObjectTypeDef = {
      apiName: 'T',
      primaryKey: 'id',
      properties: new Map([
        ['id', { apiName: 'id', dataType: { type: 'integer' } }],
        ['name', { apiName: 'name', dataType: { type: 'string' } }],
      ]),
      links: new Map(),
    } as unknown as ObjectTypeDef;
    const record: OntologyRecord = {
      rid: 'ri.o',
      apiName: 'o',
      displayName: 'O',
      description: '',
      queries: new Map([['q', Buffer.from('{"b":1,"a":[1.0]}')]]),
      queryTypes: new Map(),
      objectTypes: new Map([['T', objectType]]),
      actionTypes: new Map(),
    };
    expect(await store.ontologies.insert(record)).toBe(true);
    const back = (await store.ontologies.byRid('ri.o'))!;
    expect(back).toEqual(record);
    expect([...back.objectTypes.get('T')!.properties.keys()]).toEqual(['id', 'name']);
    expect(await store.ontologies.setQueryResult('o', 'q2', Buffer.from('2'))).toBe(true);
    expect([...(await store.ontologies.byApiName('o'))!.queries.keys()]).toEqual(['q', 'q2']);
    expect((await store.ontologies.byApiName('o'))!.objectTypes).toEqual(record.objectTypes);
  });

  it.skipIf(!TEST_STORE)('edits racing from two instances: one create of a key wins, the other is told it exists', async () => {
    // (PostgreSQL only: the memory store has no second instance.) Two stores on one schema act as two instances.
    const { openPostgresStore } = await import('../../src/store/postgres-store.js');
    const url = freshSchemaUrl(TEST_STORE!);
    const [one, other] = await Promise.all([openPostgresStore({ url }), openPostgresStore({ url })]);
    try {
      for (let round = 0; round < 20; round++) {
        const create = (s: Store, who: string) =>
          s.ontologyObjects.applyEdits('o', [
            { kind: 'create', objectType: 'T', primaryKey: round, values: { id: round, who } },
            { kind: 'addPair', linkId: 'L', a: String(round), b: who },
          ]);
        const outcomes = await Promise.all([create(one, 'a'), create(other, 'b')]);
        expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
        const winner = (await one.ontologyObjects.get('o', 'T', String(round)))!.values.who as string;
        expect(await other.ontologyObjects.paired('o', 'L', 'a', String(round))).toEqual([winner]);
      }
    } finally {
      await Promise.all([one.close(), other.close()]);
    }
  });
});
