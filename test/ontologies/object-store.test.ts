// The memory object store: lookups by key, atomic edits (all or none), dry runs, pairs.
import { describe, expect, it } from 'vitest';
import { MemoryOntologyObjects } from '../../src/store/memory/ontology-objects.js';

const obj = (key: number, values: Record<string, unknown> = {}) => ({ objectType: 'T', primaryKey: key, key: String(key), values: { id: key, ...values } });

describe('memory ontology objects', () => {
  it('inserts, skips taken keys, and lists in insertion order', async () => {
    const store = new MemoryOntologyObjects();
    expect(await store.insertObjects('o', [obj(2), obj(1), obj(2, { dup: true })])).toEqual([obj(2, { dup: true })]);
    expect((await store.list('o', 'T')).map((o) => o.key)).toEqual(['2', '1']);
    expect(await store.get('o', 'T', '1')).toEqual(obj(1));
    expect(await store.get('other', 'T', '1')).toBeUndefined();
  });

  it('applies edits all or none, checking each against the earlier ones', async () => {
    const store = new MemoryOntologyObjects();
    await store.insertObjects('o', [obj(1, { a: 1 })]);
    const before = await store.list('o', 'T');
    const refused = await store.applyEdits('o', [
      { kind: 'modify', objectType: 'T', primaryKey: 1, set: { a: 2 } },
      { kind: 'create', objectType: 'T', primaryKey: 2, values: { id: 2 } },
      { kind: 'addPair', linkId: 'L', a: '1', b: '2' },
      { kind: 'create', objectType: 'T', primaryKey: 1, values: { id: 1 } },
    ]);
    expect(refused).toEqual({ ok: false, problem: 'exists', objectType: 'T', primaryKey: 1, editIndex: 3 });
    expect(await store.list('o', 'T')).toBe(before);
    expect(await store.paired('o', 'L', 'a', '1')).toEqual([]);

    expect(
      await store.applyEdits('o', [
        { kind: 'delete', objectType: 'T', primaryKey: 1 },
        { kind: 'modify', objectType: 'T', primaryKey: 1, set: {} },
      ]),
    ).toMatchObject({ ok: false, problem: 'missing', editIndex: 1 });
    expect(await store.applyEdits('o', [{ kind: 'create', objectType: 'T', primaryKey: 3, values: { id: 3 } }], { dryRun: true })).toEqual({ ok: true });
    expect(await store.get('o', 'T', '3')).toBeUndefined();

    const ok = await store.applyEdits('o', [
      { kind: 'create', objectType: 'T', primaryKey: 2, values: { id: 2, a: 5 } },
      { kind: 'modify', objectType: 'T', primaryKey: 2, set: { a: null, b: 'x' } },
      { kind: 'addPair', linkId: 'L', a: '1', b: '2' },
    ]);
    expect(ok).toEqual({ ok: true });
    expect((await store.get('o', 'T', '2'))!.values).toEqual({ id: 2, b: 'x' });
    expect(await store.paired('o', 'L', 'b', '2')).toEqual(['1']);
    expect((await store.list('o', 'T')).map((o) => o.key)).toEqual(['1', '2']);
    await store.applyEdits('o', [{ kind: 'removePair', linkId: 'L', a: '1', b: '2' }]);
    expect(await store.paired('o', 'L', 'a', '1')).toEqual([]);
    store.clear();
    expect(await store.count()).toBe(0);
  });

  it('finds objects by a property value through an index that follows every write', async () => {
    const store = new MemoryOntologyObjects();
    await store.insertObjects('o', [obj(1, { team: 'a' }), obj(2, { team: 'b' }), obj(3, { team: 'a' }), obj(4)]);
    const keys = async (...values: string[]) => (await store.withValues('o', 'T', 'team', new Set(values))).map((o) => o.key);
    expect(await keys('a')).toEqual(['1', '3']);
    expect(await keys('b', 'a')).toEqual(['1', '2', '3']);
    await store.applyEdits('o', [
      { kind: 'modify', objectType: 'T', primaryKey: 1, set: { team: 'b' } },
      { kind: 'create', objectType: 'T', primaryKey: 5, values: { id: 5, team: 'a' } },
    ]);
    expect(await keys('a')).toEqual(['3', '5']);
    expect(await keys('b')).toEqual(['1', '2']);
    expect(await keys('none')).toEqual([]);
  });
});
