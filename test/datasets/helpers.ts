// Shared by the datasets route tests: an app with a seeded user and a token holding both datasets scopes.
import { buildTestApp, bearer, mintToken, type TestApp } from '../helpers/app.js';

export const READ = 'api:datasets-read';
export const WRITE = 'api:datasets-write';

export async function datasetsApp(seed: Record<string, unknown> = {}): Promise<TestApp & { auth: Record<string, string> }> {
  const t = await buildTestApp({ seed: { platform: { users: [{ username: 'dev' }], ...seed } } });
  return { ...t, auth: bearer(await mintToken(t.app, 'dev', [READ, WRITE])) };
}

export async function json(t: TestApp & { auth: Record<string, string> }, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  const res = await t.app.inject({ method, url, headers: t.auth, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  return {
    status: res.statusCode,
    body: res.body.length > 0 && res.headers['content-type']?.toString().includes('json') ? (res.json() as Record<string, unknown>) : {},
    raw: res,
  };
}

export async function uploadFile(t: TestApp & { auth: Record<string, string> }, rid: string, path: string, content: string | Buffer, query = '') {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v2/datasets/${rid}/files/${encodeURIComponent(path)}/upload${query}`,
    headers: { ...t.auth, 'content-type': 'application/octet-stream' },
    payload: typeof content === 'string' ? Buffer.from(content) : content,
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}
