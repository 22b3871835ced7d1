// Shared by the datasets tests: an app with a seeded user and a token holding both datasets scopes, Parquet files
// written by another library than the one that reads them, and files put straight into a byte store for the
// table-read tests.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ParquetSchema, ParquetWriter } from '@dsnp/parquetjs';
import { afterEach, expect } from 'vitest';
import { buildTestApp, bearer, mintToken, type TestApp } from '../helpers/app.js';
import type { MemoryBlobs } from '../../src/blobs/memory-blobs.js';
import type { FileRecord } from '../../src/services/datasets/model.js';

export const READ = 'api:datasets-read';
export const WRITE = 'api:datasets-write';

export type DatasetsTestApp = TestApp & { auth: Record<string, string> };

export async function datasetsApp(seed: Record<string, unknown> = {}): Promise<DatasetsTestApp> {
  const t = await buildTestApp({ seed: { platform: { users: [{ username: 'dev' }], ...seed } } });
  return { ...t, auth: bearer(await mintToken(t.app, 'dev', [READ, WRITE])) };
}

/**
 * For a file whose tests each make one app holding one dataset named `name`: `created()` makes both and answers
 * the dataset's rid; `app()` is that app, closed after each test.
 */
export function datasetPerTest(name: string) {
  let current: DatasetsTestApp | undefined;
  afterEach(async () => {
    await current?.app.close();
    current = undefined;
  });
  return {
    app(): DatasetsTestApp {
      if (!current) throw new Error('created() makes the app first');
      return current;
    },
    async created(): Promise<string> {
      current = await datasetsApp();
      const res = await json(current, 'POST', '/api/v2/datasets', { name, parentFolderRid: 'ri.compass.main.folder.data' });
      expect(res.status).toBe(200);
      return res.body.rid as string;
    },
  };
}

export async function json(t: DatasetsTestApp, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  const res = await t.app.inject({ method, url, headers: t.auth, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  return {
    status: res.statusCode,
    body: res.body.length > 0 && res.headers['content-type']?.toString().includes('json') ? (res.json() as Record<string, unknown>) : {},
    raw: res,
  };
}

export async function uploadFile(t: DatasetsTestApp, rid: string, path: string, content: string | Buffer, query = '') {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v2/datasets/${rid}/files/${encodeURIComponent(path)}/upload${query}`,
    headers: { ...t.auth, 'content-type': 'application/octet-stream' },
    payload: typeof content === 'string' ? Buffer.from(content) : content,
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

/**
 * A Parquet file of the rows, as its bytes: sensor (UTF8), value (DOUBLE, optional), count (INT64), ok (BOOLEAN),
 * day (DATE) and at, a timestamp in the given unit.
 */
export async function parquetBytes(rows: Array<Record<string, unknown>>, at: 'TIMESTAMP_MICROS' | 'TIMESTAMP_MILLIS'): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'ds-parquet-'));
  try {
    const schema = new ParquetSchema({
      sensor: { type: 'UTF8' },
      value: { type: 'DOUBLE', optional: true },
      count: { type: 'INT64' },
      ok: { type: 'BOOLEAN' },
      day: { type: 'DATE' },
      at: { type: at },
    });
    const writer = await ParquetWriter.openFile(schema, join(dir, 'f.parquet'));
    for (const row of rows) await writer.appendRow(row);
    await writer.close();
    return await readFile(join(dir, 'f.parquet'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Each file's bytes stored in `blobs`, as the records of one transaction's view. */
export async function stored(blobs: MemoryBlobs, contents: Record<string, string | Buffer>): Promise<FileRecord[]> {
  const files: FileRecord[] = [];
  for (const [path, content] of Object.entries(contents)) {
    const info = await blobs.put(Readable.from([Buffer.from(content)]), { maxBytes: 1e9 });
    files.push({ transactionRid: 't', path, blobId: info.blobId, size: info.size, updatedTime: '' });
  }
  return files;
}

/** A byte stream read to its end. */
export async function all(bytes: AsyncIterable<Buffer>): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const chunk of bytes) out.push(chunk);
  return Buffer.concat(out);
}
