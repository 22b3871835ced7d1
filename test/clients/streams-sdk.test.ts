// Conformance: `@osdk/foundry.streams` 2.38.0 through `createPlatformClient` (@osdk/client, pinned in
// package.json) against a live server (docs/streams.md). The package has create, get, publishRecord(s),
// publishBinaryRecord and reset; getRecords and getEndOffsets are not in it (they came later), so the test reads
// them over plain HTTP where the Python SDK sends them.
import { describe, expect, it } from 'vitest';
import { createPlatformClient } from '@osdk/client';
import { Datasets as StreamingDatasets, Streams } from '@osdk/foundry.streams';
import { controlToken, liveEmulator } from './conformance-helpers.js';

const url = liveEmulator(`
platform:
  users: [{ username: dev }]
`);
const SCOPES = ['api:streams-read', 'api:streams-write'];
const schema = {
  fields: [
    { name: 'id', schema: { nullable: false, dataType: { type: 'string' as const } } },
    { name: 'temperature', schema: { nullable: true, dataType: { type: 'double' as const } } },
  ],
};

async function setup() {
  const token = await controlToken(url(), 'dev', SCOPES);
  const read = async (rid: string, path: string) =>
    (await fetch(`${url()}/api/v2/highScale/streams/datasets/${rid}/streams/master/${path}`, { headers: { authorization: `Bearer ${token}` } })).json();
  return { c: createPlatformClient(url(), async () => token), read };
}

describe('platform SDK: streams', () => {
  it('creates a streaming dataset, publishes one and many, reads them back, and resets', async () => {
    const { c, read } = await setup();
    const ds = await StreamingDatasets.create(c, { name: 'readings', parentFolderRid: 'ri.compass.main.folder.data', schema });
    expect(ds).toEqual({ rid: expect.stringMatching(/^ri\.foundry\.main\.dataset\./), name: 'readings', parentFolderRid: 'ri.compass.main.folder.data' });
    const stream = await Streams.get(c, ds.rid, 'master');
    expect(stream).toMatchObject({ branchName: 'master', schema, partitionsCount: 1, streamType: 'LOW_LATENCY', compressed: false });

    await expect(Streams.publishRecord(c, ds.rid, 'master', { record: { id: 'a', temperature: 20.5 } })).resolves.toBeUndefined();
    await Streams.publishRecords(c, ds.rid, 'master', { records: [{ id: 'b', temperature: 21 }, { id: 'c' }], viewRid: stream.viewRid });
    expect(await read(ds.rid, 'getEndOffsets')).toEqual({ '0': 3 });
    expect(await read(ds.rid, 'getRecords?partitionId=0&limit=10&startOffset=1')).toEqual([
      { offset: 1, value: { id: 'b', temperature: 21 } },
      { offset: 2, value: { id: 'c' } },
    ]);

    const reset = await Streams.reset(c, ds.rid, 'master', {});
    expect(reset.viewRid).not.toBe(stream.viewRid);
    expect(await read(ds.rid, 'getEndOffsets')).toEqual({ '0': 0 });
  });

  it('creates a stream on another branch and publishes a binary record to a binary stream', async () => {
    const { c, read } = await setup();
    const ds = await StreamingDatasets.create(c, { name: 'blobs', parentFolderRid: 'ri.compass.main.folder.data', schema, branchName: 'main' });
    const made = await Streams.create(c, ds.rid, {
      branchName: 'master',
      schema: { fields: [{ name: 'bytes', schema: { nullable: false, dataType: { type: 'binary' } } }] },
    });
    expect(made.branchName).toBe('master');
    await Streams.publishBinaryRecord(c, ds.rid, 'master', new Blob([Buffer.from('hi')]));
    expect(await read(ds.rid, 'getRecords?partitionId=0&limit=10')).toEqual([{ offset: 0, value: { bytes: Buffer.from('hi').toString('base64') } }]);
  });

  it('surfaces the named errors as PalantirApiError with their status', async () => {
    const { c } = await setup();
    const ds = await StreamingDatasets.create(c, { name: 'strict', parentFolderRid: 'ri.compass.main.folder.data', schema });
    await expect(Streams.publishRecord(c, ds.rid, 'master', { record: { id: 1 } })).rejects.toMatchObject({
      errorName: 'RecordDoesNotMatchStreamSchema',
      statusCode: 400,
      parameters: { datasetRid: ds.rid, branchName: 'master', fieldName: 'id' },
    });
    await expect(Streams.get(c, ds.rid, 'nope')).rejects.toMatchObject({ errorName: 'StreamNotFound', statusCode: 404 });
    await expect(Streams.publishBinaryRecord(c, ds.rid, 'master', new Blob(['x']))).rejects.toMatchObject({ errorName: 'RecordDoesNotMatchStreamSchema' });
  });
});
