// A one-call upload or delete (no transactionRid) opens its own transaction: whatever fails inside it, the
// transaction is aborted, never left open holding its branch (docs/datasets.md, "Files").
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DATASETS } from '../../src/services/datasets/part.js';
import { datasetsApp, json, uploadFile, type DatasetsTestApp } from './helpers.js';

let t: DatasetsTestApp | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await t?.app.close();
  t = undefined;
});

describe('one-call transactions', () => {
  it('a one-call delete whose write fails aborts its transaction, and the branch opens again', async () => {
    t = await datasetsApp();
    const rid = (await json(t, 'POST', '/api/v2/datasets', { name: 'd', parentFolderRid: 'ri.compass.main.folder.data' })).body.rid as string;
    expect((await uploadFile(t, rid, 'a.csv', 'x\n1\n')).status).toBe(200);
    const repo = t.store.part(DATASETS);
    vi.spyOn(repo, 'putFile').mockRejectedValueOnce(new Error('the store failed'));
    const failed = await json(t, 'DELETE', `/api/v2/datasets/${rid}/files/a.csv`);
    expect(failed.status).toBe(500);
    const history = (await json(t, 'GET', `/api/v2/datasets/${rid}/branches/master/transactions?preview=true`)).body.data as Array<{
      transactionType: string;
      status: string;
    }>;
    expect(history.filter((x) => x.status === 'OPEN')).toEqual([]);
    // The branch is free: a client's open succeeds, and the file is still there (the delete never committed).
    const opened = await json(t, 'POST', `/api/v2/datasets/${rid}/transactions?branchName=master`, { transactionType: 'APPEND' });
    expect(opened.status).toBe(200);
    expect((await json(t, 'GET', `/api/v2/datasets/${rid}/files/a.csv`)).status).toBe(200);
  });
});
