// The `streams` and `pipelines` seed keys (docs/streams.md, "Seed"): streams with initial records, their
// checks, and the state export that imports to the same document.
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { HS, READ } from './helpers.js';
import { bearer, mintToken } from '../helpers/app.js';

const seed = {
  platform: {
    users: [{ username: 'dev' }],
    streams: [
      {
        rid: 'ri.foundry.main.dataset.events',
        name: 'events',
        parent_folder_rid: 'ri.compass.main.folder.data',
        schema: { id: 'string', temperature: 'double', tags: 'array<string>' },
        records: [
          { id: 'a', temperature: 20.5 },
          { id: 'b', temperature: 21, tags: ['x'] },
        ],
      },
      {
        rid: 'ri.foundry.main.dataset.nested',
        name: 'nested',
        branch: 'live',
        stream_type: 'HIGH_THROUGHPUT',
        schema: {
          fields: [
            {
              name: 'pos',
              schema: { nullable: false, dataType: { type: 'struct', subFields: [{ name: 'x', schema: { nullable: true, dataType: { type: 'double' } } }] } },
            },
          ],
        },
        records: [],
      },
    ],
  },
};

let t: TestApp | undefined;
afterEach(async () => {
  await t?.app.close();
  t = undefined;
});

describe('streams seed', () => {
  it('seeds streams with their records at offsets from 0', async () => {
    t = await buildTestApp({ seed });
    expect(t.summary.counts).toContainEqual({ one: 'stream', many: 'streams', count: 2 });
    const auth = bearer(await mintToken(t.app, 'dev', [READ]));
    const res = await t.app.inject({ url: `${HS}/ri.foundry.main.dataset.events/streams/master/getRecords?partitionId=0&limit=10`, headers: auth });
    expect(res.json()).toEqual([
      { offset: 0, value: { id: 'a', temperature: 20.5 } },
      { offset: 1, value: { id: 'b', temperature: 21, tags: ['x'] } },
    ]);
    const live = await t.app.inject({ url: `/api/v2/streams/datasets/ri.foundry.main.dataset.nested/streams/live`, headers: auth });
    expect(live.json()).toMatchObject({ branchName: 'live', streamType: 'HIGH_THROUGHPUT' });
  });

  it('names what is wrong: an unknown type word, a record that does not fit', async () => {
    const bad = {
      platform: {
        streams: [
          { name: 's', schema: { id: 'strng' } },
          { name: 't', schema: { n: 'integer' }, records: [{ n: 'three' }] },
        ],
      },
    };
    await expect(buildTestApp({ seed: bad })).rejects.toThrow(/platform\.streams\[0\]\.schema\.id: unknown type "strng"/);
    await expect(buildTestApp({ seed: bad })).rejects.toThrow(/platform\.streams\[1\]\.records\[0\]\.n: expected an integer/);
  });

  it('exports what it seeded, and the export imports to the same document', async () => {
    t = await buildTestApp({ seed });
    const doc = (await t.app.inject({ url: '/_emulate/platform/state' })).json() as { platform: { streams: unknown[]; datasets: unknown[] } };
    expect(doc.platform.streams).toEqual([
      {
        rid: 'ri.foundry.main.dataset.events',
        name: 'events',
        parent_folder_rid: 'ri.compass.main.folder.data',
        branch: 'master',
        schema: { id: 'string', temperature: 'double', tags: 'array<string>' },
        records: seed.platform.streams[0]!.records,
      },
      { ...seed.platform.streams[1], parent_folder_rid: 'ri.compass.main.folder.root' },
    ]);
    await t.app.close();
    t = await buildTestApp({ seed: doc });
    const again = (await t.app.inject({ url: '/_emulate/platform/state' })).json() as { platform: { streams: unknown[]; datasets: unknown[] } };
    expect(again.platform.streams).toEqual(doc.platform.streams);
    expect(again.platform.datasets).toEqual(doc.platform.datasets);
  });

  it("keeps a deployed app's pipeline resources through export and import", async () => {
    const withApp = {
      platform: {
        ...seed.platform,
        compute_modules: {
          deployed_apps: [
            {
              deployed_app_rid: 'ri.foundry.main.deployed-app.p',
              runtime_id: 'p-runtime',
              resources: { input: { rid: 'ri.foundry.main.dataset.events' } },
            },
          ],
        },
      },
    };
    t = await buildTestApp({ seed: withApp });
    const doc = (await t.app.inject({ url: '/_emulate/platform/state?secrets=include' })).json() as { platform: { pipelines: unknown } };
    expect(doc.platform.pipelines).toEqual({
      apps: [
        {
          deployed_app_rid: 'ri.foundry.main.deployed-app.p',
          branch: 'master',
          resources: { input: { rid: 'ri.foundry.main.dataset.events', branch: 'master' } },
        },
      ],
    });
    await t.app.close();
    t = await buildTestApp({ seed: doc });
    expect(
      ((await t.app.inject({ url: '/_emulate/platform/state?secrets=include' })).json() as { platform: { pipelines: unknown } }).platform.pipelines,
    ).toEqual(doc.platform.pipelines);
  });
});

describe('streams dashboard views', () => {
  it('lists streams with their offsets and newest record, and pipelines with both sides', async () => {
    t = await buildTestApp({
      seed: {
        platform: {
          ...seed.platform,
          compute_modules: {
            deployed_apps: [
              { deployed_app_rid: 'ri.foundry.main.deployed-app.p', runtime_id: 'p-runtime', resources: { input: { rid: 'ri.foundry.main.dataset.events' } } },
            ],
          },
        },
      },
    });
    const streams = (await t.app.inject({ url: '/_emulate/platform/streams?q=events' })).json() as { items: unknown[] };
    expect(streams.items).toEqual([
      expect.objectContaining({ name: 'events', branch: 'master', first: 0, end: 2, latest: '{"id":"b","temperature":21,"tags":["x"]}' }),
    ]);
    const pipelines = (await t.app.inject({ url: '/_emulate/platform/pipelines' })).json() as { items: unknown[] };
    expect(pipelines.items).toEqual([{ deployedAppRid: 'ri.foundry.main.deployed-app.p', branch: 'master', resources: 'input: 2 records, end 2' }]);
  });
});
