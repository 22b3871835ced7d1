// Pipeline mode (docs/streams.md, "Pipeline mode"): run-module gives a deployed app with resources a build token
// and the alias map; a module on @palantir/compute-module 0.2.7 moves every input record exactly once into its
// output stream through the stream proxy; the build token is refused on anything the app did not declare.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/index.js';
import { runModule } from '../../src/run-module.js';
import { controlToken } from '../clients/conformance-helpers.js';
import { TEST_STORE, freshSchemaUrl } from '../helpers/store.js';
import { PIPELINE_SESSION } from '../../src/services/streams/pipeline/backstage.js';

const INPUT = 'ri.foundry.main.dataset.pipe-in';
const OUTPUT = 'ri.foundry.main.dataset.pipe-out';
const SECRET = 'ri.foundry.main.dataset.pipe-secret';
const APP = 'ri.foundry.main.deployed-app.pipe';
const SEED = `
platform:
  users: [{ username: dev }]
  streams:
    - { rid: ${INPUT}, name: in, schema: { id: string, x: integer } }
    - { rid: ${OUTPUT}, name: out, schema: { id: string, twice: integer } }
    - { rid: ${SECRET}, name: secret, schema: { id: string }, records: [{ id: hidden }] }
  compute_modules:
    deployed_apps:
      - deployed_app_rid: ${APP}
        runtime_id: pipe-runtime
        resources: { input: { rid: ${INPUT} }, output: { rid: ${OUTPUT}, branch: master } }
`;
const COUNT = 250;
const MODULE = join(import.meta.dirname, '../fixtures/pipeline-modules/ts-pipeline.mjs');

let emulator: Emulator;
let token: string;
const api = (path: string, init: RequestInit = {}, bearer = token) =>
  fetch(`${emulator.url}${path}`, { ...init, headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' } });
const hs = (rid: string, tail: string) => `/api/v2/highScale/streams/datasets/${rid}/streams/master/${tail}`;

beforeAll(async () => {
  // On the PostgreSQL pass, a fresh schema of that store: build tokens and their principal live there too.
  emulator = await startEmulator({ seed: SEED, ...(TEST_STORE ? { store: freshSchemaUrl(TEST_STORE) } : {}) });
  token = await controlToken(emulator.url, 'dev', ['api:streams-read', 'api:streams-write', 'api:datasets-read']);
});
afterAll(() => emulator?.close());

describe('pipeline mode', () => {
  it('a @palantir/compute-module module moves every input record exactly once into its output', async () => {
    const records = Array.from({ length: COUNT }, (_, i) => ({ id: `r${i}`, x: i }));
    // Half before the module starts, half while it runs.
    expect((await api(hs(INPUT, 'publishRecords'), { method: 'POST', body: JSON.stringify({ records: records.slice(0, COUNT / 2) }) })).status).toBe(204);
    const dir = mkdtempSync(join(tmpdir(), 'pipe-test-'));
    const resultFile = join(dir, 'result.json');
    const lines: string[] = [];
    try {
      const running = runModule({
        url: emulator.url,
        runtimeId: 'pipe-runtime',
        deployedAppRid: APP,
        command: [process.execPath, MODULE],
        env: { ...process.env, RESULT_FILE: resultFile, EXPECT_RECORDS: String(COUNT), UNDECLARED_RID: SECRET },
        log: (line) => lines.push(line),
      });
      await new Promise((r) => setTimeout(r, 200));
      expect((await api(hs(INPUT, 'publishRecords'), { method: 'POST', body: JSON.stringify({ records: records.slice(COUNT / 2) }) })).status).toBe(204);
      expect(await running).toBe(0);
      const result = JSON.parse(readFileSync(resultFile, 'utf8')) as Record<string, unknown>;
      expect(result).toMatchObject({
        environment: 'pipelines',
        input: { rid: INPUT, branch: 'master' },
        proxy: `${emulator.url}/stream-proxy/api`,
        tokenFile: { mode: 0o600, endsWithNewline: false },
        aliasMap: { input: { rid: INPUT, branch: 'master' }, output: { rid: OUTPUT, branch: 'master' } },
        moved: COUNT,
        undeclared: { status: 403, body: { errorName: 'ResourceNotDeclared', parameters: { resourceRid: SECRET } } },
      });
      // Removed when run-module ended.
      for (const file of result.files as string[]) expect(existsSync(file)).toBe(false);
      expect(lines.join('\n')).toContain('pipeline mode: resources input, output');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const out = (await (await api(hs(OUTPUT, 'getRecords?partitionId=0&limit=1000'))).json()) as Array<{
      offset: number;
      value: { id: string; twice: number };
    }>;
    expect(out.map((r) => r.offset)).toEqual(Array.from({ length: COUNT }, (_, i) => i));
    expect(out.map((r) => r.value).sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)))).toEqual(records.map((r) => ({ id: r.id, twice: r.x * 2 })));
  });

  it('a build token reads and writes only the declared resources, on every service', async () => {
    const session = (await (
      await fetch(`${emulator.url}${PIPELINE_SESSION}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ runtimeId: 'pipe-runtime' }),
      })
    ).json()) as { buildToken: string; resources: unknown };
    expect(session.resources).toEqual({ input: { rid: INPUT, branch: 'master' }, output: { rid: OUTPUT, branch: 'master' } });
    const build = session.buildToken;
    expect((await api(hs(INPUT, 'getEndOffsets'), {}, build)).status).toBe(200);
    expect((await api(`/stream-proxy/api/streams/${OUTPUT}/branches/master/records`, {}, build)).status).toBe(200);
    for (const path of [
      hs(SECRET, 'getEndOffsets'),
      `/stream-proxy/api/streams/${SECRET}/branches/master/records`,
      `/api/v2/datasets/${SECRET}/readTable?format=CSV`,
    ]) {
      const res = await api(path, {}, build);
      expect(res.status, path).toBe(403);
      expect(await res.json()).toMatchObject({ errorName: 'ResourceNotDeclared', parameters: { resourceRid: SECRET } });
    }
    // A route that names no resource is refused too; one outside the token's scopes by its scope.
    const create = await api(
      '/api/v2/streams/datasets/create',
      { method: 'POST', body: JSON.stringify({ name: 'x', parentFolderRid: 'ri.compass.main.folder.x', schema: { fields: [] } }) },
      build,
    );
    expect(create.status).toBe(403);
    expect((await api('/api/v2/ontologies', {}, build)).status).toBe(403);
    // The declared dataset reads as a table through the datasets service.
    expect((await api(`/api/v2/datasets/${INPUT}/readTable?format=CSV&rowLimit=1`, {}, build)).status).toBe(200);
  });

  it('an app without resources is not in pipeline mode', async () => {
    const res = await fetch(`${emulator.url}${PIPELINE_SESSION}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ runtimeId: 'other' }),
    });
    expect(await res.json()).toEqual({});
  });
});
