// Secrets never reach the log: every request that carries one, successful or not, at the most verbose level
// with per-request logging on, while the log output is captured.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, mintToken } from '../helpers/app.js';
import { BASE, READ, SECRET, SEED, WRITE, containsAnySecret, createRequest, withConfiguration } from './fixtures.js';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
}

describe('connection secrets and the log', () => {
  it.each(['debug', 'trace'] as const)('no secret value appears in any log line at %s', async (logLevel) => {
    const log = capture();
    const { app, store } = await buildTestApp({ seed: SEED, logLevel, logDestination: log.stream });
    const headers = bearer(await mintToken(app, 'alice', [READ, WRITE]));
    const json = { ...headers, 'content-type': 'application/json' };
    const post = (url: string, payload: unknown, h: Record<string, string> = json) =>
      app.inject({ method: 'POST', url, headers: h, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });

    const created = await post(BASE, createRequest());
    expect(created.statusCode).toBe(200);
    const rid = created.json().rid as string;
    const secretsUrl = `${BASE}/${rid}/updateSecrets`;
    const responses = [
      created,
      await post(secretsUrl, { secrets: { zeta: SECRET.rotated, beta: SECRET.added } }),
      await app.inject({ url: `${BASE}/${rid}/getConfiguration`, headers }),
      await app.inject({ url: `${BASE}/${rid}`, headers }),
      // Failures whose request bodies carry secrets: validation, parsing, size, content type, unknown rid, scope.
      await post(secretsUrl, { secrets: { good: SECRET.added, bad: 5 } }),
      await post(secretsUrl, { secrets: { token: { value: SECRET.rotated } } }),
      await post(secretsUrl, `{"secrets": {"a": "${SECRET.rotated}"`),
      await post(secretsUrl, `["${SECRET.rotated}"]`),
      await post(secretsUrl, JSON.stringify({ secrets: { a: SECRET.rotated, pad: 'x'.repeat(1024 * 1024) } })),
      await post(secretsUrl, `secrets=${SECRET.rotated}`, { ...headers, 'content-type': 'application/x-www-form-urlencoded' }),
      await post(`${BASE}/ri.nope/updateSecrets`, { secrets: { a: SECRET.rotated } }),
      await post(secretsUrl, { secrets: { a: SECRET.rotated } }, { ...bearer(await mintToken(app, 'alice', [READ])), 'content-type': 'application/json' }),
      await post(
        BASE,
        withConfiguration((c) => (c.additionalSecrets = { type: 'asSecretsWithPlaintextValues', secrets: { ok: SECRET.extraA, bad: 1 } })),
      ),
      await post(
        BASE,
        withConfiguration((c) => ((c.domains as Array<Record<string, unknown>>)[0]!.scheme = 'HTTP')),
      ),
      await post(
        BASE,
        withConfiguration((c) => (c.type = 'snowflake')),
      ),
      await post(BASE, { ...createRequest(), displayName: 42 }),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([200, 204, 200, 200, 400, 400, 400, 400, 413, 400, 404, 403, 400, 400, 400, 400]);

    // An unexpected failure while a request carries secrets is logged with its error, still without them.
    store.connections.mergeSecrets = async () => {
      throw new Error('store unavailable');
    };
    expect((await post(secretsUrl, { secrets: { a: SECRET.rotated } })).statusCode).toBe(500);

    const text = log.lines.join('');
    // The capture works: request lines and the failures were logged.
    expect(text).toContain('incoming request');
    expect(text).toContain('store unavailable');
    expect(text).toContain('UpdateSecretsForConnectionPermissionDenied');
    expect(containsAnySecret(text)).toEqual([]);
    for (const res of responses) expect(containsAnySecret(res.body)).toEqual([]);
  });
});
