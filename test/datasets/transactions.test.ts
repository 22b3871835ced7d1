// Datasets over HTTP (docs/datasets.md): datasets, branches, transactions and their views, files, on the
// store under test (memory, or PostgreSQL in the second pass).
import { describe, expect, it } from 'vitest';
import { platformError } from '../helpers/app.js';
import { datasetPerTest, json, uploadFile } from './helpers.js';

const { app: t, created } = datasetPerTest('readings');

const paths = async (rid: string, query = '') =>
  ((await json(t(), 'GET', `/api/v2/datasets/${rid}/files${query}`)).body.data as Array<{ path: string }>).map((f) => f.path);

describe('datasets', () => {
  it('are created with a master branch and read back; an unknown one is DatasetNotFound', async () => {
    const rid = await created();
    expect(rid).toMatch(/^ri\.foundry\.main\.dataset\./);
    expect((await json(t(), 'GET', `/api/v2/datasets/${rid}`)).body).toEqual({ rid, name: 'readings', parentFolderRid: 'ri.compass.main.folder.data' });
    expect((await json(t(), 'GET', `/api/v2/datasets/${rid}/branches`)).body).toEqual({ data: [{ name: 'master' }] });
    const missing = await json(t(), 'GET', '/api/v2/datasets/ri.foundry.main.dataset.nope');
    expect(missing.status).toBe(404);
    expect(platformError(missing.body).errorName).toBe('DatasetNotFound');
  });

  it('refuse a token without the scope with 403', async () => {
    const rid = await created();
    const { mintToken, bearer } = await import('../helpers/app.js');
    const reader = bearer(await mintToken(t().app, 'dev', ['api:datasets-read']));
    const res = await t().app.inject({
      method: 'POST',
      url: `/api/v2/datasets/${rid}/transactions`,
      headers: reader,
      payload: { transactionType: 'SNAPSHOT' },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('transactions', () => {
  it('allow one open transaction per branch, and a commit moves the branch head', async () => {
    const rid = await created();
    const open = await json(t(), 'POST', `/api/v2/datasets/${rid}/transactions?branchName=master`, { transactionType: 'SNAPSHOT' });
    expect(open.body).toMatchObject({ transactionType: 'SNAPSHOT', status: 'OPEN' });
    const second = await json(t(), 'POST', `/api/v2/datasets/${rid}/transactions`, { transactionType: 'APPEND' });
    expect(second.status).toBe(409);
    expect(platformError(second.body)).toMatchObject({ errorName: 'OpenTransactionAlreadyExists', parameters: { datasetRid: rid, branchName: 'master' } });
    const txRid = open.body.rid as string;
    expect((await uploadFile(t(), rid, 'a.csv', 'x\n1\n', `?transactionRid=${txRid}`)).status).toBe(200);
    expect(await paths(rid)).toEqual([]);
    const committed = await json(t(), 'POST', `/api/v2/datasets/${rid}/transactions/${txRid}/commit`);
    expect(committed.body).toMatchObject({ rid: txRid, status: 'COMMITTED', closedTime: expect.any(String) });
    expect((await json(t(), 'GET', `/api/v2/datasets/${rid}/branches/master`)).body).toEqual({ name: 'master', transactionRid: txRid });
    expect(await paths(rid)).toEqual(['a.csv']);
    const again = await json(t(), 'POST', `/api/v2/datasets/${rid}/transactions/${txRid}/commit`);
    expect(again.status).toBe(400);
    expect(platformError(again.body)).toMatchObject({ errorName: 'TransactionNotOpen', parameters: { transactionStatus: 'COMMITTED' } });
    const late = await uploadFile(t(), rid, 'b.csv', 'x\n', `?transactionRid=${txRid}`);
    expect(late.status).toBe(400);
    expect(late.body.errorName).toBe('TransactionNotOpen');
  });

  it('keep every committed file when uploads race for the branch, each opening and committing its own transaction', async () => {
    const rid = await created();
    // Rounds of four uploads close together: each may win the branch or find it held (409). Every 200 is a
    // committed UPDATE that the view and the branch's history must keep.
    const committed: string[] = [];
    for (let round = 0; round < 80; round++)
      await Promise.all(
        ['a', 'b', 'c', 'd'].map(async (name, i) => {
          // Staggered, so that some opens meet another upload's commit under way.
          await new Promise((r) => setTimeout(r, ((i * 7 + round * 3) % 6) / 2));
          const path = `${name}-${round}.csv`;
          const res = await uploadFile(t(), rid, path, 'v\n1\n', '?transactionType=UPDATE');
          if (res.status === 200) committed.push(path);
          else expect(res.body.errorName).toBe('OpenTransactionAlreadyExists');
        }),
      );
    expect(committed.length).toBeGreaterThanOrEqual(80);
    expect((await paths(rid, '?pageSize=1000')).sort()).toEqual(committed.sort());
    const history = await json(t(), 'GET', `/api/v2/datasets/${rid}/branches/master/transactions?pageSize=1000`);
    expect(history.body.data).toHaveLength(committed.length);
  });

  it('fold SNAPSHOT, APPEND, UPDATE and DELETE into views; an abort leaves no trace; reads in the past see the past', async () => {
    const rid = await created();
    const first = await uploadFile(t(), rid, 'a.csv', 'v\n1\n', '?transactionType=SNAPSHOT');
    await uploadFile(t(), rid, 'b.csv', 'v\n2\n', '?transactionType=APPEND');
    const appendAgain = await uploadFile(t(), rid, 'a.csv', 'v\n9\n', '?transactionType=APPEND');
    expect(appendAgain.status).toBe(404);
    expect(appendAgain.body.errorName).toBe('FileAlreadyExists');
    await uploadFile(t(), rid, 'a.csv', 'v\n3\n', '?transactionType=UPDATE');
    expect(await paths(rid)).toEqual(['a.csv', 'b.csv']);
    const content = await t().app.inject({ url: `/api/v2/datasets/${rid}/files/a.csv/content`, headers: t().auth });
    expect(content.body).toBe('v\n3\n');

    const aborted = await json(t(), 'POST', `/api/v2/datasets/${rid}/transactions`, { transactionType: 'SNAPSHOT' });
    await uploadFile(t(), rid, 'c.csv', 'v\n4\n', `?transactionRid=${aborted.body.rid as string}`);
    expect((await json(t(), 'POST', `/api/v2/datasets/${rid}/transactions/${aborted.body.rid as string}/abort`)).body.status).toBe('ABORTED');
    expect(await paths(rid)).toEqual(['a.csv', 'b.csv']);

    const del = await t().app.inject({ method: 'DELETE', url: `/api/v2/datasets/${rid}/files/b.csv`, headers: t().auth });
    expect(del.statusCode).toBe(204);
    expect(await paths(rid)).toEqual(['a.csv']);
    // The first SNAPSHOT's view is still there.
    expect(await paths(rid, `?endTransactionRid=${first.body.transactionRid as string}`)).toEqual(['a.csv']);
    const old = await t().app.inject({
      url: `/api/v2/datasets/${rid}/files/a.csv/content?endTransactionRid=${first.body.transactionRid as string}`,
      headers: t().auth,
    });
    expect(old.body).toBe('v\n1\n');

    await uploadFile(t(), rid, 'z.csv', 'v\n5\n', '?transactionType=SNAPSHOT');
    expect(await paths(rid)).toEqual(['z.csv']);
    const history = (await json(t(), 'GET', `/api/v2/datasets/${rid}/branches/master/transactions`)).body.data as Array<{ transactionType: string }>;
    expect(history.map((h) => h.transactionType)).toEqual(['SNAPSHOT', 'DELETE', 'UPDATE', 'APPEND', 'SNAPSHOT']);
  });

  it('name unknown transactions, files and branches', async () => {
    const rid = await created();
    const tx = await json(t(), 'GET', `/api/v2/datasets/${rid}/transactions/ri.foundry.main.transaction.nope`);
    expect([tx.status, platformError(tx.body).errorName]).toEqual([404, 'TransactionNotFound']);
    const file = await json(t(), 'GET', `/api/v2/datasets/${rid}/files/none.csv`);
    expect([file.status, platformError(file.body).errorName]).toEqual([404, 'FileNotFound']);
    const branch = await json(t(), 'GET', `/api/v2/datasets/${rid}/branches/nope`);
    expect([branch.status, platformError(branch.body).errorName]).toEqual([404, 'BranchNotFound']);
  });
});

describe('branches', () => {
  it('start at a given transaction or at the default branch head, and keep their own history', async () => {
    const rid = await created();
    const one = await uploadFile(t(), rid, 'a.csv', 'v\n1\n');
    await uploadFile(t(), rid, 'b.csv', 'v\n2\n');
    const fromTx = await json(t(), 'POST', `/api/v2/datasets/${rid}/branches`, { name: 'old', transactionRid: one.body.transactionRid });
    expect(fromTx.body).toEqual({ name: 'old', transactionRid: one.body.transactionRid });
    expect(await paths(rid, '?branchName=old')).toEqual(['a.csv']);
    const fromHead = await json(t(), 'POST', `/api/v2/datasets/${rid}/branches`, { name: 'dev' });
    expect(await paths(rid, '?branchName=dev')).toEqual(['a.csv', 'b.csv']);
    expect(fromHead.status).toBe(200);
    await uploadFile(t(), rid, 'c.csv', 'v\n3\n', '?branchName=dev');
    expect(await paths(rid, '?branchName=dev')).toEqual(['a.csv', 'b.csv', 'c.csv']);
    expect(await paths(rid)).toEqual(['a.csv', 'b.csv']);
    const dup = await json(t(), 'POST', `/api/v2/datasets/${rid}/branches`, { name: 'dev' });
    expect([dup.status, platformError(dup.body).errorName]).toEqual([409, 'BranchAlreadyExists']);
    expect((await t().app.inject({ method: 'DELETE', url: `/api/v2/datasets/${rid}/branches/dev`, headers: t().auth })).statusCode).toBe(204);
    expect((await json(t(), 'GET', `/api/v2/datasets/${rid}/branches/dev`)).status).toBe(404);
  });

  it('are deleted with their open transaction in one step, however an open races the delete', async () => {
    const rid = await created();
    await uploadFile(t(), rid, 'base.csv', 'v\n1\n');
    const outcomes = new Set<string>();
    for (let round = 0; round < 30; round++) {
      expect((await json(t(), 'POST', `/api/v2/datasets/${rid}/branches`, { name: 'b' })).status).toBe(200);
      const [opened, deleted] = await Promise.all([
        (async () => {
          await new Promise((r) => setTimeout(r, round % 3));
          return json(t(), 'POST', `/api/v2/datasets/${rid}/transactions?branchName=b`, { transactionType: 'APPEND' });
        })(),
        t().app.inject({ method: 'DELETE', url: `/api/v2/datasets/${rid}/branches/b`, headers: t().auth }),
      ]);
      expect(deleted.statusCode).toBe(204);
      // Before the delete: aborted with the branch. After it: no branch. Never a conflict, never left open.
      if (opened.status === 200) {
        const left = await json(t(), 'GET', `/api/v2/datasets/${rid}/transactions/${opened.body.rid as string}`);
        expect(left.body.status).toBe('ABORTED');
        outcomes.add('aborted');
      } else {
        expect([opened.status, platformError(opened.body).errorName]).toEqual([404, 'BranchNotFound']);
        outcomes.add('not found');
      }
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });

  it('refuse a name over 1024 UTF-8 bytes, which no URL could reach again; the longest taken are reached over HTTP', async () => {
    const rid = await created();
    // Percent-encoded in a URL, a longer name may pass Node's 16 KiB of headers: every later request answers 431.
    for (const name of ['x'.repeat(20_000), '€'.repeat(2_000), 'x'.repeat(1025), 'é'.repeat(513)]) {
      const res = await json(t(), 'POST', `/api/v2/datasets/${rid}/branches`, { name });
      const error = platformError(res.body);
      // The parameter gives the name back (cut at 1024 characters, as every parameter is).
      const given = String(error.parameters.branchName);
      expect([name.length, res.status, error.errorName, name.startsWith(given.replace(/…$/, ''))]).toEqual([name.length, 400, 'InvalidBranchName', true]);
    }
    expect((await json(t(), 'GET', `/api/v2/datasets/${rid}/branches`)).body.data).toEqual([{ name: 'master' }]);
    // Over a real socket: inject() does not meet Node's header limit.
    const base = await t().app.listen({ host: '127.0.0.1', port: 0 });
    const call = (method: string, url: string, body?: unknown) =>
      fetch(`${base}/api/v2/datasets/${rid}${url}`, {
        method,
        headers: { ...t().auth, ...(body === undefined ? {} : { 'content-type': typeof body === 'string' ? 'text/csv' : 'application/json' }) },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
    for (const name of ['x'.repeat(1024), '€'.repeat(341), 'é'.repeat(512)]) {
      const b = encodeURIComponent(name);
      expect((await call('POST', '/branches', { name })).status).toBe(200);
      expect((await call('GET', `/branches/${b}`)).status).toBe(200);
      expect((await call('POST', `/files/a.csv/upload?branchName=${b}`, 'v\n1\n')).status).toBe(200);
      expect((await call('POST', `/transactions?branchName=${b}`, { transactionType: 'APPEND' })).status).toBe(200);
      const history = await call('GET', `/branches/${b}/transactions`);
      expect([history.status, ((await history.json()) as { data: unknown[] }).data.length]).toEqual([200, 2]);
      expect((await call('DELETE', `/branches/${b}`)).status).toBe(204);
    }
  });
});

describe('paths', () => {
  it('may hold slashes, encoded or not, and refuse `..`, empty segments and empty paths with 400', async () => {
    const rid = await created();
    expect((await uploadFile(t(), rid, 'dir/sub/a b.csv', 'v\n1\n')).body.path).toBe('dir/sub/a b.csv');
    const plain = await t().app.inject({ url: `/api/v2/datasets/${rid}/files/dir/sub/a%20b.csv/content`, headers: t().auth });
    expect(plain.body).toBe('v\n1\n');
    for (const bad of ['..%2Fetc', 'a%2F..%2Fb', 'a%2F%2Fb', '']) {
      const res = await t().app.inject({
        method: 'POST',
        url: `/api/v2/datasets/${rid}/files/${bad}/upload`,
        headers: { ...t().auth, 'content-type': 'application/octet-stream' },
        payload: 'x',
      });
      expect(res.statusCode, bad).toBe(400);
    }
  });
});
