// Datasets on several instances of one PostgreSQL schema (docs/datasets.md): bytes written through A are read
// through B, a transaction opened on A blocks a second one on B, and a commit on B moves the view A serves.
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/index.js';
import { freshSchemaUrl } from '../helpers/store.js';
import { controlToken } from '../clients/conformance-helpers.js';
import { baseUrl } from './helpers.js';

const RID = 'ri.foundry.main.dataset.shared';
const SEED = `
platform:
  users: [{ username: dev }]
  datasets: [{ rid: ${RID}, name: shared, schema: { a: long }, files: [{ path: p0.csv, content: "a\\n1\\n" }] }]
`;
let running: Emulator[] = [];
afterEach(async () => {
  await Promise.all(running.map((e) => e.close()));
  running = [];
});

describe('datasets on several PostgreSQL instances', () => {
  it('share bytes, the one-open-transaction rule and commits', async () => {
    const store = freshSchemaUrl(baseUrl());
    const a = await startEmulator({ seed: SEED, store });
    running.push(a);
    const b = await startEmulator({ seed: SEED, store });
    running.push(b);
    const token = await controlToken(a.url, 'dev', ['api:datasets-read', 'api:datasets-write']);
    const call = (e: Emulator, path: string, init: RequestInit = {}) =>
      fetch(`${e.url}/api/v2/datasets/${RID}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
      });

    const open = (await (await call(a, '/transactions', { method: 'POST', body: JSON.stringify({ transactionType: 'APPEND' }) })).json()) as { rid: string };
    const second = await call(b, '/transactions', { method: 'POST', body: JSON.stringify({ transactionType: 'APPEND' }) });
    expect(second.status).toBe(409);
    const up = await call(a, `/files/p1.csv/upload?transactionRid=${open.rid}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: 'a\n2\n',
    });
    expect(up.status).toBe(200);
    expect((await call(b, `/transactions/${open.rid}/commit`, { method: 'POST', body: '{}' })).status).toBe(200);
    expect(await (await call(a, '/readTable?format=CSV')).text()).toBe('a\n1\n2\n');
    expect(await (await call(b, '/files/p1.csv/content')).text()).toBe('a\n2\n');
  });
});
