// The streams routes through the app (memory and, with TEST_STORE, PostgreSQL): create, get, reset, publish,
// read, end offsets, the legacy proxy routes, and the refusals of docs/streams.md.
import { describe, expect, it } from 'vitest';
import { bearer, mintToken, platformError } from '../helpers/app.js';
import { HS, SCHEMA, V2, call, createStream, field, streamsApp } from './helpers.js';

describe('streams: create, get, reset', () => {
  it('creates a streaming dataset that is also a dataset, with a stream on master', async () => {
    const t = await streamsApp();
    const rid = await createStream(t);
    expect(rid).toMatch(/^ri\.foundry\.main\.dataset\./);
    const got = await call(t, 'GET', `${V2}/${rid}/streams/master`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ branchName: 'master', schema: SCHEMA, partitionsCount: 1, streamType: 'LOW_LATENCY', compressed: false });
    expect(got.body.viewRid).toMatch(/^ri\.foundry-streaming\.main\.view\./);
    const dataset = await call(t, 'GET', `/api/v2/datasets/${rid}`);
    expect(dataset.body).toMatchObject({ rid, name: 'readings' });
  });

  it('creates a stream on another branch of the dataset, and refuses a second one there', async () => {
    const t = await streamsApp();
    const rid = await createStream(t);
    const made = await call(t, 'POST', `${V2}/${rid}/streams`, { branchName: 'dev', schema: SCHEMA, partitionsCount: 2 });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ branchName: 'dev', partitionsCount: 2 });
    const again = await call(t, 'POST', `${V2}/${rid}/streams`, { branchName: 'dev', schema: SCHEMA });
    expect(again.status).toBe(409);
    expect(platformError(again.body).errorName).toBe('StreamAlreadyExists');
  });

  it('reset starts a new view with no records and offsets from 0 again', async () => {
    const t = await streamsApp();
    const rid = await createStream(t);
    const before = (await call(t, 'GET', `${V2}/${rid}/streams/master`)).body.viewRid;
    await call(t, 'POST', `${HS}/${rid}/streams/master/publishRecord`, { record: { id: 'a', temperature: 1 } });
    const reset = await call(t, 'POST', `${V2}/${rid}/streams/master/reset`, {});
    expect(reset.status).toBe(200);
    expect(reset.body.viewRid).not.toBe(before);
    expect((await call(t, 'GET', `${HS}/${rid}/streams/master/getEndOffsets`)).body).toEqual({ '0': 0 });
    await call(t, 'POST', `${HS}/${rid}/streams/master/publishRecord`, { record: { id: 'b', temperature: 2 } });
    const records = await call(t, 'GET', `${HS}/${rid}/streams/master/getRecords?partitionId=0&limit=10`);
    expect(records.body).toEqual([{ offset: 0, value: { id: 'b', temperature: 2 } }]);
    // The old view is gone.
    const old = await call(t, 'GET', `${HS}/${rid}/streams/master/getRecords?partitionId=0&limit=10&viewRid=${before}`);
    expect(old.status).toBe(404);
    expect(platformError(old.body).errorName).toBe('ViewNotFound');
  });

  it('refuses a bad schema, stream type and partitions count by name', async () => {
    const t = await streamsApp();
    const base = { name: 'x', parentFolderRid: 'ri.compass.main.folder.data' };
    const unknownType = await call(t, 'POST', `${V2}/create`, { ...base, schema: { fields: [field('a', 'quaternion')] } });
    expect(unknownType.status).toBe(400);
    expect(platformError(unknownType.body).errorName).toBe('InvalidStreamSchema');
    const streamType = await call(t, 'POST', `${V2}/create`, { ...base, schema: SCHEMA, streamType: 'FAST' });
    expect(platformError(streamType.body).errorName).toBe('InvalidStreamType');
    const partitions = await call(t, 'POST', `${V2}/create`, { ...base, schema: SCHEMA, partitionsCount: 0 });
    expect(partitions.status).toBe(400);
  });
});

describe('streams: publish and read', () => {
  for (const base of ['/api', '/stream-proxy/api']) {
    it(`publishes one and many at dense offsets from 0 and reads them back (${base})`, async () => {
      const t = await streamsApp();
      const rid = await createStream(t);
      const at = `${base}/v2/highScale/streams/datasets/${rid}/streams/master`;
      const one = await call(t, 'POST', `${at}/publishRecord`, { record: { id: 'a', temperature: 20.5 } });
      expect(one.status).toBe(204);
      const many = await call(t, 'POST', `${at}/publishRecords`, {
        records: [
          { id: 'b', temperature: 21 },
          { id: 'c', temperature: null },
        ],
      });
      expect(many.status).toBe(204);
      expect((await call(t, 'GET', `${at}/getEndOffsets`)).body).toEqual({ '0': 3 });
      const all = await call(t, 'GET', `${at}/getRecords?partitionId=0&limit=100`);
      expect(all.body).toEqual([
        { offset: 0, value: { id: 'a', temperature: 20.5 } },
        { offset: 1, value: { id: 'b', temperature: 21 } },
        { offset: 2, value: { id: 'c', temperature: null } },
      ]);
      const page = await call(t, 'GET', `${at}/getRecords?partitionId=0&limit=1&startOffset=1`);
      expect(page.body).toEqual([{ offset: 1, value: { id: 'b', temperature: 21 } }]);
      expect((await call(t, 'GET', `${at}/getRecords?partitionId=0&limit=5&startOffset=3`)).body).toEqual([]);
    });
  }

  it('refuses a record that does not fit the schema, naming the field, and writes nothing of a bad batch', async () => {
    const t = await streamsApp();
    const rid = await createStream(t);
    const at = `${HS}/${rid}/streams/master`;
    const wrongType = await call(t, 'POST', `${at}/publishRecord`, { record: { id: 'a', temperature: 'hot' } });
    expect(wrongType.status).toBe(400);
    const err = platformError(wrongType.body);
    expect(err.errorName).toBe('RecordDoesNotMatchStreamSchema');
    expect(err.parameters).toMatchObject({ datasetRid: rid, branchName: 'master', fieldName: 'temperature' });
    const unknown = await call(t, 'POST', `${at}/publishRecord`, { record: { id: 'a', colour: 'red' } });
    expect(platformError(unknown.body).parameters).toMatchObject({ fieldName: 'colour' });
    const missing = await call(t, 'POST', `${at}/publishRecord`, { record: { temperature: 1 } });
    expect(platformError(missing.body).parameters).toMatchObject({ fieldName: 'id' });
    const batch = await call(t, 'POST', `${at}/publishRecords`, { records: [{ id: 'ok', temperature: 1 }, { id: 5 }] });
    expect(platformError(batch.body).parameters).toMatchObject({ fieldName: 'id', recordIndex: 1 });
    expect((await call(t, 'GET', `${at}/getEndOffsets`)).body).toEqual({ '0': 0 });
  });

  it('refuses unknown streams and branches, a read past the end, and a binary record on a JSON stream', async () => {
    const t = await streamsApp();
    const rid = await createStream(t);
    const noStream = await call(t, 'GET', `${HS}/ri.foundry.main.dataset.nope/streams/master/getEndOffsets`);
    expect(noStream.status).toBe(404);
    expect(platformError(noStream.body)).toMatchObject({
      errorName: 'StreamNotFound',
      parameters: { datasetRid: 'ri.foundry.main.dataset.nope', streamBranchName: 'master' },
    });
    const noBranch = await call(t, 'POST', `${HS}/${rid}/streams/dev/publishRecord`, { record: { id: 'a' } });
    expect(platformError(noBranch.body)).toMatchObject({ errorName: 'StreamNotFound', parameters: { streamBranchName: 'dev' } });
    const past = await call(t, 'GET', `${HS}/${rid}/streams/master/getRecords?partitionId=0&limit=5&startOffset=7`);
    expect(past.status).toBe(400);
    expect(platformError(past.body).parameters).toMatchObject({ parameter: 'startOffset', startOffset: 7, endOffset: 0 });
    const binary = await t.app.inject({
      method: 'POST',
      url: `${HS}/${rid}/streams/master/publishBinaryRecord`,
      headers: { ...t.auth, 'content-type': 'application/octet-stream' },
      payload: Buffer.from([1, 2, 3]),
    });
    expect(binary.statusCode).toBe(400);
    expect(platformError(binary.json()).errorName).toBe('RecordDoesNotMatchStreamSchema');
    const badPartition = await call(t, 'GET', `${HS}/${rid}/streams/master/getRecords?partitionId=3&limit=5`);
    expect(badPartition.status).toBe(400);
  });

  it('takes binary records on a stream of one binary field and reads them as base64', async () => {
    const t = await streamsApp();
    const rid = await createStream(t, { fields: [field('payload', 'binary')] });
    const res = await t.app.inject({
      method: 'POST',
      url: `${HS}/${rid}/streams/master/publishBinaryRecord`,
      headers: { ...t.auth, 'content-type': 'application/octet-stream' },
      payload: Buffer.from('hello'),
    });
    expect(res.statusCode).toBe(204);
    const read = await call(t, 'GET', `${HS}/${rid}/streams/master/getRecords?partitionId=0&limit=5`);
    expect(read.body).toEqual([{ offset: 0, value: { payload: Buffer.from('hello').toString('base64') } }]);
  });

  it('refuses an oversize record and an oversize batch with 413', async () => {
    const t = await streamsApp();
    const rid = await createStream(t);
    const at = `${HS}/${rid}/streams/master`;
    const big = await call(t, 'POST', `${at}/publishRecord`, { record: { id: 'x'.repeat(1024 * 1024 + 10) } });
    expect(big.status).toBe(413);
    const many = await call(t, 'POST', `${at}/publishRecords`, { records: Array.from({ length: 10_001 }, (_, i) => ({ id: String(i) })) });
    expect(many.status).toBe(413);
    expect(platformError(many.body).errorName).toBe('RecordTooLarge');
    expect((await call(t, 'GET', `${at}/getEndOffsets`)).body).toEqual({ '0': 0 });
  });

  it('keeps at most limits.max_stream_records, the drop visible as the first offset returned', async () => {
    const t = await streamsApp({ limits: { max_stream_records: 3 } });
    const rid = await createStream(t);
    const at = `${HS}/${rid}/streams/master`;
    await call(t, 'POST', `${at}/publishRecords`, { records: [1, 2, 3, 4].map((n) => ({ id: String(n) })) });
    await call(t, 'POST', `${at}/publishRecord`, { record: { id: '5' } });
    const read = await call(t, 'GET', `${at}/getRecords?partitionId=0&limit=10`);
    expect((read.body as Array<{ offset: number }>).map((r) => r.offset)).toEqual([2, 3, 4]);
    expect((await call(t, 'GET', `${at}/getEndOffsets`)).body).toEqual({ '0': 5 });
    const legacy = await call(t, 'GET', `/stream-proxy/api/streams/${rid}/branches/master/records`);
    expect(legacy.body[0]).toEqual({ offset: 2, value: { id: '3' } });
  });

  it('checks scopes: a token without api:streams-write cannot publish', async () => {
    const t = await streamsApp();
    const rid = await createStream(t);
    const readOnly = bearer(await mintToken(t.app, 'dev', ['api:streams-read']));
    const res = await call(t, 'POST', `${HS}/${rid}/streams/master/publishRecord`, { record: { id: 'a' } }, readOnly);
    expect(res.status).toBe(403);
    expect((await call(t, 'GET', `${HS}/${rid}/streams/master/getEndOffsets`, undefined, readOnly)).status).toBe(200);
  });
});

describe('streams: the legacy stream-proxy routes', () => {
  it('publishes a bare record and [{value}] to a view, and reads {offset, value}', async () => {
    const t = await streamsApp();
    const rid = await createStream(t);
    const viewRid = (await call(t, 'GET', `${V2}/${rid}/streams/master`)).body.viewRid as string;
    expect((await call(t, 'POST', `/stream-proxy/api/streams/${rid}/branches/master/jsonRecord`, { id: 'a', temperature: 1 })).status).toBe(204);
    const views = await call(t, 'POST', `/stream-proxy/api/streams/${rid}/views/${viewRid}/jsonRecords`, [{ value: { id: 'b' } }, { value: { id: 'c' } }]);
    expect(views.status).toBe(204);
    const read = await call(t, 'GET', `/stream-proxy/api/streams/${rid}/branches/master/records`);
    expect(read.body).toEqual([
      { offset: 0, value: { id: 'a', temperature: 1 } },
      { offset: 1, value: { id: 'b' } },
      { offset: 2, value: { id: 'c' } },
    ]);
    const bad = await call(t, 'POST', `/stream-proxy/api/streams/${rid}/branches/master/jsonRecord`, { id: 1 });
    expect(platformError(bad.body).errorName).toBe('RecordDoesNotMatchStreamSchema');
    const noView = await call(t, 'POST', `/stream-proxy/api/streams/${rid}/views/ri.foundry-streaming.main.view.nope/jsonRecords`, [{ value: { id: 'x' } }]);
    expect(noView.status).toBe(404);
  });
});

describe('streams: a stream is a dataset', () => {
  it('readTable on the stream answers its records as CSV', async () => {
    const t = await streamsApp();
    const rid = await createStream(t);
    await call(t, 'POST', `${HS}/${rid}/streams/master/publishRecords`, { records: [{ id: 'a', temperature: 1.5 }, { id: 'b' }] });
    const res = await t.app.inject({ url: `/api/v2/datasets/${rid}/readTable?format=CSV`, headers: t.auth });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('id,temperature\na,1.5\nb,\n');
    const limited = await t.app.inject({ url: `/api/v2/datasets/${rid}/readTable?format=CSV&rowLimit=1&columns=id`, headers: t.auth });
    expect(limited.body).toBe('id\na\n');
  });
});

describe('streams: malformed requests', () => {
  it('answers a named 400 or 404, never a 500', async () => {
    const t = await streamsApp();
    const rid = await createStream(t);
    const at = `${HS}/${rid}/streams/master`;
    const cases: Array<[string, 'GET' | 'POST', string, unknown, number]> = [
      ['limit 0', 'GET', `${at}/getRecords?partitionId=0&limit=0`, undefined, 400],
      ['limit not a number', 'GET', `${at}/getRecords?partitionId=0&limit=many`, undefined, 400],
      ['no limit', 'GET', `${at}/getRecords?partitionId=0`, undefined, 400],
      ['no partitionId', 'GET', `${at}/getRecords?limit=5`, undefined, 400],
      ['negative startOffset', 'GET', `${at}/getRecords?partitionId=0&limit=5&startOffset=-1`, undefined, 400],
      ['records not a list', 'POST', `${at}/publishRecords`, { records: { id: 'a' } }, 400],
      ['no record', 'POST', `${at}/publishRecord`, {}, 400],
      ['a list body', 'POST', `${at}/publishRecord`, [{ id: 'a' }], 400],
      ['a record that is a list', 'POST', `${at}/publishRecord`, { record: [1] }, 400],
      ['jsonRecords not a list', 'POST', `/stream-proxy/api/streams/${rid}/views/x/jsonRecords`, { value: {} }, 404],
      ['reset of no stream', 'POST', `${V2}/${rid}/streams/nope/reset`, {}, 404],
      ['create on no dataset', 'POST', `${V2}/ri.foundry.main.dataset.none/streams`, { branchName: 'master', schema: SCHEMA }, 404],
      ['create without schema', 'POST', `${V2}/create`, { name: 'x', parentFolderRid: 'ri.compass.main.folder.x' }, 400],
    ];
    for (const [what, method, url, body, status] of cases) {
      const res = await call(t, method, url, body);
      expect(res.status, what).toBe(status);
      expect(platformError(res.body).errorName, what).toBeTruthy();
    }
    const notJson = await t.app.inject({
      method: 'POST',
      url: `${at}/publishRecord`,
      headers: { ...t.auth, 'content-type': 'application/json' },
      payload: '{"record":',
    });
    expect(notJson.statusCode).toBe(400);
    expect((await call(t, 'GET', `${at}/getEndOffsets`)).body).toEqual({ '0': 0 });
  });
});
