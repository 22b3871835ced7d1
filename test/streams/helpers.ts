// Shared by the streams route tests: an app with a seeded user and a token holding both streams scopes.
import { buildTestApp, bearer, mintToken, type TestApp } from '../helpers/app.js';

export const READ = 'api:streams-read';
export const WRITE = 'api:streams-write';
export const HS = '/api/v2/highScale/streams/datasets';
export const V2 = '/api/v2/streams/datasets';

export type StreamsApp = TestApp & { auth: Record<string, string> };

export async function streamsApp(platform: Record<string, unknown> = {}): Promise<StreamsApp> {
  const t = await buildTestApp({ seed: { platform: { users: [{ username: 'dev' }], ...platform } } });
  return { ...t, auth: bearer(await mintToken(t.app, 'dev', [READ, WRITE, 'api:datasets-read'])) };
}

export async function call(t: StreamsApp, method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = t.auth) {
  const res = await t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  return {
    status: res.statusCode,
    body: (res.body.length > 0 && res.headers['content-type']?.toString().includes('json') ? res.json() : undefined) as Record<string, unknown> & unknown[],
    raw: res,
  };
}

export const field = (name: string, type: string, nullable = true) => ({ name, schema: { nullable, dataType: { type } } });
export const SCHEMA = { fields: [field('id', 'string', false), field('temperature', 'double')] };

/** A new streaming dataset with the readings schema; answers its rid. */
export async function createStream(t: StreamsApp, schema: unknown = SCHEMA, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await call(t, 'POST', `${V2}/create`, { name: 'readings', parentFolderRid: 'ri.compass.main.folder.data', schema, ...extra });
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${res.raw.body}`);
  return res.body.rid as string;
}
