// Conformance: `@osdk/foundry.datasets` 2.38.0 through `createPlatformClient` (@osdk/client, pinned in
// package.json) against a live server (docs/datasets.md). The package encodes path parameters with
// encodeURIComponent (a file path's `/` arrives as %2F), sends uploads as a Blob with Content-Type
// application/octet-stream, and answers readTable and content as the raw fetch Response.
import { describe, expect, it } from 'vitest';
import { createPlatformClient } from '@osdk/client';
import { Branches, Datasets, Files, Transactions } from '@osdk/foundry.datasets';
import { tableFromIPC } from 'apache-arrow';
import { controlToken, liveEmulator } from './conformance-helpers.js';

const RID = 'ri.foundry.main.dataset.readings';
const url = liveEmulator(`
platform:
  users: [{ username: dev }]
  datasets:
    - rid: ${RID}
      name: readings
      schema: { sensor: string, value: double }
      files: [{ path: part-0.csv, content: "sensor,value\\na,1.5\\n" }]
`);

async function client(scopes = ['api:datasets-read', 'api:datasets-write']) {
  const token = await controlToken(url(), 'dev', scopes);
  return createPlatformClient(url(), async () => token);
}

describe('platform SDK: datasets', () => {
  it('creates a dataset, writes in a transaction, lists branches and files, and reads content and tables', async () => {
    const c = await client();
    const ds = await Datasets.create(c, { name: 'made', parentFolderRid: 'ri.compass.main.folder.x' });
    expect(ds).toEqual({ rid: expect.stringMatching(/^ri\.foundry\.main\.dataset\./), name: 'made', parentFolderRid: 'ri.compass.main.folder.x' });
    const tx = await Transactions.create(c, ds.rid, { transactionType: 'SNAPSHOT' }, { branchName: 'master' });
    expect(tx).toMatchObject({ transactionType: 'SNAPSHOT', status: 'OPEN' });
    const file = await Files.upload(c, ds.rid, 'dir/a.csv', new Blob(['sensor,value\nz,9\n']), { transactionRid: tx.rid });
    expect(file).toMatchObject({ path: 'dir/a.csv', transactionRid: tx.rid, sizeBytes: '17' });
    expect((await Transactions.commit(c, ds.rid, tx.rid)).status).toBe('COMMITTED');
    expect((await Branches.list(c, ds.rid)).data).toEqual([{ name: 'master', transactionRid: tx.rid }]);
    expect((await Files.list(c, ds.rid)).data.map((f) => f.path)).toEqual(['dir/a.csv']);
    expect(await (await Files.content(c, ds.rid, 'dir/a.csv')).text()).toBe('sensor,value\nz,9\n');

    const csv = await Datasets.readTable(c, RID, { format: 'CSV', columns: [] });
    expect(await csv.text()).toBe('sensor,value\na,1.5\n');
    const arrow = tableFromIPC(new Uint8Array(await (await Datasets.readTable(c, RID, { format: 'ARROW', columns: ['value'] })).arrayBuffer()));
    expect(arrow.getChild('value')!.toArray()).toEqual(new Float64Array([1.5]));
    const schema = await Datasets.getSchema(c, RID);
    expect(schema.schema.fieldSchemaList.map((f) => f.type)).toEqual(['STRING', 'DOUBLE']);
  });

  it('surfaces the named errors as PalantirApiError with their status', async () => {
    const c = await client();
    await expect(Datasets.get(c, 'ri.foundry.main.dataset.none')).rejects.toMatchObject({ errorName: 'DatasetNotFound', statusCode: 404 });
    const open = await Transactions.create(c, RID, { transactionType: 'APPEND' });
    await expect(Transactions.create(c, RID, { transactionType: 'APPEND' })).rejects.toMatchObject({
      errorName: 'OpenTransactionAlreadyExists',
      statusCode: 409,
    });
    await expect(Files.upload(c, RID, 'part-0.csv', new Blob(['x']), { transactionRid: open.rid })).rejects.toMatchObject({ errorName: 'FileAlreadyExists' });
    await Transactions.abort(c, RID, open.rid);
    await expect(Transactions.commit(c, RID, open.rid)).rejects.toMatchObject({ errorName: 'TransactionNotOpen', statusCode: 400 });
    const reader = await client(['api:datasets-read']);
    await expect(Datasets.create(reader, { name: 'no', parentFolderRid: 'ri.compass.main.folder.x' })).rejects.toMatchObject({ statusCode: 403 });
  });

  it('reads array columns item by item with their own type, in both formats', async () => {
    const c = await client();
    const ds = await Datasets.create(c, { name: 'arrays', parentFolderRid: 'ri.compass.main.folder.x' });
    const text = 'l,d,day,at,n\n"[9007199254740993,-4]","[1.50,null]","[""2026-01-02""]","[""2026-01-01T10:00:00Z""]","[[1, 2], [], null, [3]]"\n';
    await Files.upload(c, ds.rid, 'x.csv', new Blob([text]), { transactionType: 'SNAPSHOT' });
    const item = (type: string) => ({ type: 'ARRAY' as const, nullable: true, arraySubtype: { type: type as 'LONG', nullable: true } });
    await Datasets.putSchema(c, ds.rid, {
      schema: {
        fieldSchemaList: [
          { name: 'l', ...item('LONG') },
          { name: 'd', ...item('DECIMAL') },
          { name: 'day', ...item('DATE') },
          { name: 'at', ...item('TIMESTAMP') },
          { name: 'n', type: 'ARRAY', nullable: true, arraySubtype: item('LONG') },
        ],
      },
    });
    // A row limit makes the CSV answer written from values, not the file's own text.
    const csv = await (await Datasets.readTable(c, ds.rid, { format: 'CSV', columns: [], rowLimit: 5 })).text();
    expect(csv).toBe('l,d,day,at,n\n"[9007199254740993,-4]","[1.50,null]","[""2026-01-02""]","[""2026-01-01T10:00:00.000Z""]","[[1,2],[],null,[3]]"\n');
    const table = tableFromIPC(new Uint8Array(await (await Datasets.readTable(c, ds.rid, { format: 'ARROW', columns: [] })).arrayBuffer()));
    expect([...table.getChild('l')!.get(0)!].map(String)).toEqual(['9007199254740993', '-4']);
    expect([...table.getChild('d')!.get(0)!]).toEqual(['1.50', null]);
    expect([...table.getChild('day')!.get(0)!]).toEqual([Date.UTC(2026, 0, 2)]);
    expect([...table.getChild('at')!.get(0)!].map(Number)).toEqual([Date.UTC(2026, 0, 1, 10)]);
    // A nested array's items are read with its own item type, not as text.
    expect([...table.getChild('n')!.get(0)!].map((inner) => (inner === null ? null : [...(inner as Iterable<bigint>)].map(Number)))).toEqual([
      [1, 2],
      [],
      null,
      [3],
    ]);
  });

  it('refuses branch names a URL cannot carry, and an empty name or path is not a listing', async () => {
    const c = await client();
    for (const name of ['.', '..']) await expect(Branches.create(c, RID, { name })).rejects.toMatchObject({ errorName: 'InvalidBranchName', statusCode: 400 });
    await expect(Files.get(c, RID, '')).rejects.toMatchObject({ errorName: 'InvalidFilePath', parameters: { filePath: '' } });
    await expect(Transactions.get(c, RID, '')).rejects.toMatchObject({ errorName: 'TransactionNotFound' });
    await expect(Branches.get(c, RID, '')).rejects.toMatchObject({ errorName: 'BranchNotFound' });
  });
});
