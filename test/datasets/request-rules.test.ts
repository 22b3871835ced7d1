// What the datasets routes refuse or read strictly (docs/datasets.md): a view's start outside its end's
// history, an upload that would open a DELETE transaction, schemas a read could not serve, oversize schema
// batches, page tokens not handed out, days past their month's end, and timestamps without a zone read the
// same on every host. On the store under test (memory, or PostgreSQL in the second pass).
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { platformError } from '../helpers/app.js';
import { datasetPerTest, json, uploadFile } from './helpers.js';

const { app: t, created } = datasetPerTest('rules');

const field = (name: string, type: string, extra: Record<string, unknown> = {}) => ({ name, type, nullable: true, ...extra });
const putSchema = (rid: string, fieldSchemaList: unknown[]) => json(t(), 'PUT', `/api/v2/datasets/${rid}/putSchema`, { schema: { fieldSchemaList } });
const read = (rid: string, format: 'CSV' | 'ARROW') => t().app.inject({ url: `/api/v2/datasets/${rid}/readTable?format=${format}`, headers: t().auth });

describe('views', () => {
  it('refuse a start transaction that is not in the history of the end', async () => {
    const rid = await created();
    const first = (await uploadFile(t(), rid, 'a.csv', 'v\n1\n', '?transactionType=SNAPSHOT')).body.transactionRid as string;
    await json(t(), 'POST', `/api/v2/datasets/${rid}/branches`, { name: 'dev' });
    const onDev = (await uploadFile(t(), rid, 'd.csv', 'v\n3\n', '?transactionType=UPDATE&branchName=dev')).body.transactionRid as string;
    const later = (await uploadFile(t(), rid, 'm.csv', 'v\n2\n', '?transactionType=UPDATE')).body.transactionRid as string;

    const within = await json(t(), 'GET', `/api/v2/datasets/${rid}/files?startTransactionRid=${first}`);
    expect((within.body.data as Array<{ path: string }>).map((f) => f.path)).toEqual(['a.csv', 'm.csv']);
    for (const query of [`startTransactionRid=${onDev}`, `startTransactionRid=${later}&endTransactionRid=${first}`]) {
      const res = await json(t(), 'GET', `/api/v2/datasets/${rid}/files?${query}`);
      expect([res.status, platformError(res.body).errorName]).toEqual([404, 'TransactionNotFound']);
    }
  });

  it('an upload asking for a DELETE transaction is refused before any transaction is opened', async () => {
    const rid = await created();
    const res = await uploadFile(t(), rid, 'b.txt', '1', '?transactionType=DELETE');
    expect([res.status, res.body.errorName]).toEqual([400, 'InvalidTransactionType']);
    expect((await json(t(), 'GET', `/api/v2/datasets/${rid}/transactions`)).body.data).toEqual([]);
  });
});

describe('dataset names', () => {
  it('are display names of their folder: blank, "." and "..", a "/" and over 700 characters are refused; the rest is kept', async () => {
    await created();
    const create = (name: string) => json(t(), 'POST', '/api/v2/datasets', { name, parentFolderRid: 'ri.compass.main.folder.root' });
    for (const bad of [' ', '.', '..', 'a/b', 'x'.repeat(701)]) {
      const res = await create(bad);
      expect([bad.slice(0, 3), res.status, platformError(res.body).errorName, platformError(res.body).parameters.displayName]).toEqual([
        bad.slice(0, 3),
        400,
        'InvalidDisplayName',
        bad,
      ]);
    }
    for (const good of ['..hidden', 'a.b', 'x'.repeat(700), 'trips 2026 (café)']) {
      const res = await create(good);
      expect([res.status, res.body.name]).toEqual([200, good]);
    }
  });

  it('are unique in their folder: a second dataset of one name there is ResourceNameAlreadyExists, elsewhere it is made', async () => {
    await created();
    const create = (name: string, parentFolderRid: string) => json(t(), 'POST', '/api/v2/datasets', { name, parentFolderRid });
    expect((await create('trips', 'ri.compass.main.folder.a')).status).toBe(200);
    const again = await create('trips', 'ri.compass.main.folder.a');
    expect([again.status, platformError(again.body).errorName, platformError(again.body).parameters]).toEqual([
      409,
      'ResourceNameAlreadyExists',
      { parentFolderRid: 'ri.compass.main.folder.a', displayName: 'trips' },
    ]);
    expect((await create('trips', 'ri.compass.main.folder.b')).status).toBe(200);
    expect((await create('Trips', 'ri.compass.main.folder.a')).status).toBe(200);
  });
});

describe('DECIMAL precision and scale', () => {
  it('refuse a value that does not fit, in every format, also in a file a read proved for a wider schema', async () => {
    const rid = await created();
    await uploadFile(t(), rid, 'd.csv', 'amount\n1.50\n123456.789\n', '?transactionType=SNAPSHOT');
    expect((await putSchema(rid, [field('amount', 'DECIMAL', { precision: 10, scale: 3 })])).status).toBe(200);
    const wide = await read(rid, 'CSV');
    expect([wide.statusCode, wide.body]).toEqual([200, 'amount\n1.50\n123456.789\n']);
    expect((await putSchema(rid, [field('amount', 'DECIMAL', { precision: 5, scale: 2 })])).status).toBe(200);
    for (const format of ['CSV', 'ARROW'] as const) {
      const narrow = await read(rid, format);
      expect([format, narrow.statusCode, platformError(narrow.json()).parameters.message]).toEqual([
        format,
        400,
        'd.csv line 3, column "amount": "123456.789" is not a decimal that fits DECIMAL(5, 2) (at most 3 digits before the point and 2 after)',
      ]);
    }
  });
});

describe('refusals named as the clients know them', () => {
  it('a schema on a branch with no commit, a POST under /files/ not ending in /upload, a page size below 1', async () => {
    const rid = await created();
    const noView = await putSchema(rid, [field('n', 'STRING')]);
    expect([noView.status, platformError(noView.body).errorName, platformError(noView.body).parameters]).toEqual([
      404,
      'DatasetViewNotFound',
      { datasetRid: rid, branch: 'master' },
    ]);
    const stray = await t().app.inject({ method: 'POST', url: `/api/v2/datasets/${rid}/files/a.csv`, headers: t().auth, payload: 'x' });
    expect([stray.statusCode, stray.json().errorName, stray.json().parameters]).toEqual([404, 'NotFound', { path: `/api/v2/datasets/${rid}/files/a.csv` }]);
    const page = await json(t(), 'GET', `/api/v2/datasets/${rid}/transactions?pageSize=0`);
    expect([page.status, platformError(page.body).parameters]).toEqual([400, { pageSize: 0 }]);
  });
});

describe('schemas', () => {
  it('refuse unknown field types, an ARRAY without its item type and a column named twice', async () => {
    const rid = await created();
    await uploadFile(t(), rid, 'x.csv', 'n\nabc\n', '?transactionType=SNAPSHOT');
    const unknown = await putSchema(rid, [field('n', 'WHATEVER')]);
    expect([unknown.status, platformError(unknown.body).errorName, platformError(unknown.body).parameters.fieldName]).toEqual([400, 'InvalidFieldSchema', 'n']);
    const nested = await putSchema(rid, [field('n', 'ARRAY', { arraySubtype: field('x', 'NOPE') })]);
    expect(platformError(nested.body).errorName).toBe('InvalidFieldSchema');
    expect(platformError((await putSchema(rid, [field('n', 'ARRAY')])).body).errorName).toBe('InvalidFieldSchema');
    for (const bad of [{ type: 'STRING', nullable: true, name: 5 }, field('', 'STRING'), field('n', 'DECIMAL', { precision: -5 })]) {
      const res = await putSchema(rid, [bad]);
      expect([res.status, platformError(res.body).errorName]).toEqual([400, 'InvalidFieldSchema']);
    }
    const twice = await putSchema(rid, [field('n', 'STRING'), field('n', 'LONG')]);
    expect([twice.status, platformError(twice.body).errorName]).toEqual([400, 'InvalidSchema']);
    // Nothing of the refused ones was kept.
    const kept = await json(t(), 'GET', `/api/v2/datasets/${rid}/getSchema`);
    expect(platformError(kept.body).errorName).toBe('SchemaNotFound');
    const nestedTypes = [
      field('m', 'MAP', { mapKeyType: field('k', 'STRING'), mapValueType: field('v', 'LONG') }),
      field('s', 'STRUCT', { subSchemas: [field('a', 'DATE')] }),
    ];
    expect((await putSchema(rid, [field('n', 'STRING'), ...nestedTypes])).status).toBe(200);
  });

  it('a batch of more than 1,000 is BatchRequestSizeExceededLimit', async () => {
    const rid = await created();
    const res = await json(
      t(),
      'POST',
      '/api/v2/datasets/getSchemaBatch',
      Array.from({ length: 1001 }, () => ({ datasetRid: rid })),
    );
    expect([res.status, platformError(res.body)]).toMatchObject([
      400,
      { errorName: 'BatchRequestSizeExceededLimit', parameters: { maximumBatchSize: 1000, providedBatchSize: 1001 } },
    ]);
  });
});

describe('listings', () => {
  it('refuse a page token they did not hand out, or one handed out by another listing', async () => {
    const rid = await created();
    for (const path of ['a', 'b', 'c']) await uploadFile(t(), rid, path, 'x', '?transactionType=UPDATE');
    const first = await json(t(), 'GET', `/api/v2/datasets/${rid}/files?pageSize=2`);
    const token = first.body.nextPageToken as string;
    expect((await json(t(), 'GET', `/api/v2/datasets/${rid}/files?pageSize=2&pageToken=${token}`)).body.data).toHaveLength(1);
    for (const url of [`/files?pageToken=garbage`, `/transactions?pageToken=${token}`]) {
      const res = await json(t(), 'GET', `/api/v2/datasets/${rid}${url}`);
      expect([res.status, platformError(res.body).errorName]).toEqual([400, 'InvalidPageToken']);
    }
  });
});

describe('dates and timestamps', () => {
  it('a day past its month end is refused in both formats, not rolled on to the next month', async () => {
    const rid = await created();
    await uploadFile(t(), rid, 'a.csv', 'd\n2024-02-29\n2023-02-29\n', '?transactionType=SNAPSHOT');
    await putSchema(rid, [field('d', 'DATE')]);
    for (const format of ['CSV', 'ARROW'] as const) {
      const res = await read(rid, format);
      expect(res.statusCode).toBe(400);
      expect(platformError(res.json()).parameters.message).toBe('a.csv line 3, column "d": "2023-02-29" is not a date (YYYY-MM-DD)');
    }
  });

  it('a timestamp without a zone is UTC whatever the host zone', async () => {
    const rid = await created();
    await uploadFile(t(), rid, 'a.csv', 'at\n2024-03-01T10:00:00\n2024-03-01 10:00\n', '?transactionType=SNAPSHOT');
    await putSchema(rid, [field('at', 'TIMESTAMP')]);
    const zone = process.env.TZ;
    try {
      process.env.TZ = 'America/New_York';
      const csv = await t().app.inject({ url: `/api/v2/datasets/${rid}/readTable?format=CSV&rowLimit=5`, headers: t().auth });
      expect(csv.body).toBe('at\n2024-03-01T10:00:00.000Z\n2024-03-01T10:00:00.000Z\n');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});

describe('bytes that are not UTF-8', () => {
  it('come out as U+FFFD on every read, not only the first', async () => {
    const rid = await created();
    await uploadFile(t(), rid, 'a.csv', Buffer.from([...Buffer.from('x,y\n1,'), 0xff, 0xfe, 0xc0, 10]), '?transactionType=SNAPSHOT');
    await putSchema(rid, [field('x', 'INTEGER'), field('y', 'STRING')]);
    const reads = [];
    for (let i = 0; i < 3; i++) reads.push((await read(rid, 'CSV')).rawPayload);
    expect(reads[0]!.toString()).toBe('x,y\n1,\uFFFD\uFFFD\uFFFD\n');
    expect(reads[1]!.equals(reads[0]!) && reads[2]!.equals(reads[0]!)).toBe(true);
  });
});

describe('a reset during an upload', () => {
  it('answers the upload as for its dataset gone, on every store (PostgreSQL answered 500)', async () => {
    const rid = await created();
    let resume!: () => void;
    const resumed = new Promise<void>((r) => (resume = r));
    let sent = 0;
    // Three MiB, a pause while the test resets the store, then one more.
    const body = Readable.from(
      (async function* () {
        for (let i = 0; i < 3; i++, sent++) yield Buffer.alloc(1024 * 1024, 1);
        await resumed;
        yield Buffer.alloc(1024 * 1024, 2);
      })(),
    );
    const upload = t().app.inject({
      method: 'POST',
      url: `/api/v2/datasets/${rid}/files/big.bin/upload?transactionType=SNAPSHOT`,
      headers: { ...t().auth, 'content-type': 'application/octet-stream' },
      payload: body,
    });
    for (let i = 0; i < 400 && sent < 3; i++) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 50));
    expect((await t().app.inject({ method: 'POST', url: '/_emulate/platform/reset' })).statusCode).toBe(200);
    resume();
    const answered = await upload;
    expect(answered.statusCode).toBe(404);
    // The reset took the dataset (not a seeded one) with its transaction.
    expect(platformError(answered.json()).errorName).toBe('DatasetNotFound');
  });
});

describe('the journal of a refused datasets request', () => {
  it('names the dataset, branch and transaction the request named, and the open transaction that blocks', async () => {
    const rid = await created();
    const open = await json(t(), 'POST', `/api/v2/datasets/${rid}/transactions?branchName=master`, { transactionType: 'SNAPSHOT' });
    const openRid = open.body.rid as string;
    await json(t(), 'POST', `/api/v2/datasets/${rid}/transactions?branchName=master`, { transactionType: 'APPEND' });
    await uploadFile(t(), rid, 'a/../b.csv', 'x', `?transactionRid=${openRid}`);
    await t().app.inject({ url: `/api/v2/datasets/${rid}/readTable?format=XML&branchName=dev`, headers: t().auth });
    const entries = (await t().app.inject({ url: '/_emulate/platform/journal?limit=3' })).json() as { entries: Array<{ reason?: string }> };
    const [badFormat, badPath, blocked] = entries.entries.map((e) => e.reason ?? '');
    expect(blocked).toContain(`has an open transaction already ("${openRid}")`);
    expect(badPath).toContain('file path "a/../b.csv"');
    expect(badPath).toContain(`dataset "${rid}", transaction "${openRid}"`);
    expect(badFormat).toContain(`dataset "${rid}", branch "dev"`);
  });

  it('never shows a secret given in a parameter, and names each value once, as the route took it', async () => {
    const rid = await created();
    const token = 'platform_abcdefghijklmnopqrstuvwxyz0123456789';
    await t().app.inject({ url: `/api/v2/datasets/${rid}/readTable?format=CSV&branchName=master;client_secret=SECRET1`, headers: t().auth });
    await t().app.inject({ url: `/api/v2/datasets/${rid}/readTable?format=CSV&endTransactionRid=${token}`, headers: t().auth });
    await t().app.inject({ url: `/api/v2/datasets/${rid}/files?branchName=first-given&branchName=${'b'.repeat(300)}`, headers: t().auth });
    const entries = (await t().app.inject({ url: '/_emulate/platform/journal?limit=3' })).json() as { entries: Array<{ reason?: string }> };
    const [repeated, tokenGiven, joined] = entries.entries.map((e) => e.reason ?? '');
    for (const reason of [tokenGiven, joined]) {
      expect(reason).not.toContain('SECRET1');
      expect(reason).not.toContain('abcdefghijklmnop');
      expect(reason).toContain('not shown');
    }
    // The route took the last branch given; the long name is cut, and said once.
    expect(repeated).not.toContain('first-given');
    expect(repeated).toMatch(/has no branch "b+…"$/);
  });
});
