// The request journal (docs/contracts.md §7): what it records, what it leaves out, its filters, its bound, its readers.
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, mintToken } from '../helpers/app.js';
import type { JournalEntry } from '../../src/http/journal/index.js';
import { captureLog } from './helpers.js';

const entries = async (app: Awaited<ReturnType<typeof buildTestApp>>['app'], query = ''): Promise<JournalEntry[]> => {
  const res = await app.inject({ url: `/_emulate/platform/journal${query}` });
  expect(res.statusCode).toBe(200);
  return (res.json() as { entries: JournalEntry[] }).entries;
};

describe('request journal', () => {
  it('records every request newest first, with the clock time, status and duration, and not its own reads', async () => {
    const { app, clock } = await buildTestApp();
    const token = await mintToken(app, 'admin', ['api:admin-read']);
    clock.advance(1000);
    await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(token) });
    await app.inject({ url: '/_emulate/health' });
    await app.inject({ url: '/_emulate/platform/clock' });
    await app.inject({ method: 'OPTIONS', url: '/api/v2/admin/users/getCurrent' });
    const list = await entries(app);
    expect(list.map((e) => [e.method, e.path, e.status])).toEqual([
      ['GET', '/api/v2/admin/users/getCurrent', 200],
      ['POST', '/_emulate/platform/tokens', 200],
    ]);
    const [get, mint] = list;
    expect(get!.id).toBeGreaterThan(mint!.id);
    expect(get!.time).toBe(new Date(clock.now()).toISOString());
    expect(get!.username).toBe('admin');
    expect(mint!.username).toBe('admin');
    expect(get!.durationMs).toBeGreaterThanOrEqual(0);
    expect(get!.reason).toBeUndefined();
    expect(get!.errorCode).toBeUndefined();
  });

  it('filters by method, status or class, path prefix and refusals, and limits', async () => {
    const { app } = await buildTestApp();
    await app.inject({ url: '/api/v2/admin/users/getCurrent' });
    await app.inject({ url: '/api/v2/nothing-here' });
    await app.inject({ method: 'POST', url: '/_emulate/platform/tokens', payload: { username: 'admin' } });
    expect((await entries(app, '?method=post')).map((e) => e.path)).toEqual(['/_emulate/platform/tokens']);
    expect((await entries(app, '?status=404')).map((e) => e.path)).toEqual(['/api/v2/nothing-here']);
    expect((await entries(app, '?status=4xx')).map((e) => e.status)).toEqual([404, 401]);
    expect((await entries(app, '?refusals=true')).length).toBe(2);
    expect((await entries(app, '?path=/api/v2/admin')).map((e) => e.status)).toEqual([401]);
    expect((await entries(app, '?limit=1')).map((e) => e.path)).toEqual(['/_emulate/platform/tokens']);
    const bad = await app.inject({ url: '/_emulate/platform/journal?limit=many' });
    expect(bad.statusCode).toBe(400);
  });

  it('is bounded by journal_size, keeps ids increasing across a clear, and DELETE clears it', async () => {
    const { app } = await buildTestApp({ seed: { platform: { journal_size: 3 } } });
    for (let i = 0; i < 5; i++) await app.inject({ url: `/api/v2/n${i}` });
    expect((await entries(app)).map((e) => e.path)).toEqual(['/api/v2/n4', '/api/v2/n3', '/api/v2/n2']);
    const lastId = (await entries(app))[0]!.id;
    expect((await app.inject({ method: 'DELETE', url: '/_emulate/platform/journal' })).statusCode).toBe(200);
    expect((await entries(app)).map((e) => e.method)).toEqual(['DELETE']);
    await app.inject({ url: '/api/v2/after' });
    expect((await entries(app))[0]!.id).toBeGreaterThan(lastId + 1);
  });

  it('is off with journal_size 0, and a refusal is still logged', async () => {
    const log = captureLog();
    const { app } = await buildTestApp({ seed: { platform: { journal_size: 0 } }, logLevel: 'info', logDestination: log });
    await app.inject({ url: '/api/v2/admin/users/getCurrent' });
    expect(await entries(app)).toEqual([]);
    expect(log.parsed().filter((l) => l.msg === 'request refused')).toHaveLength(1);
  });

  it('redacts the query values of credentials, and shows the parameters that came', async () => {
    const { app } = await buildTestApp();
    await app.inject({ url: '/api/v2/x?code=abc123&state=st4te&access_token=tok&client_secret=sec&pageSize=5&my_api_token=zz' });
    const [e] = await entries(app);
    expect(e!.path).toBe('/api/v2/x?code=[redacted]&state=[redacted]&access_token=[redacted]&client_secret=[redacted]&pageSize=5&my_api_token=[redacted]');
  });

  it('tells a subscriber each new entry until it unsubscribes', async () => {
    const { app } = await buildTestApp();
    const seen: JournalEntry[] = [];
    const stop = app.journal.subscribe((e) => seen.push(e));
    await app.inject({ url: '/api/v2/one' });
    stop();
    await app.inject({ url: '/api/v2/two' });
    expect(seen.map((e) => e.path)).toEqual(['/api/v2/one']);
    expect(app.journal.list({ limit: 1 })[0]!.path).toBe('/api/v2/two');
  });

  it('is emptied by a reset, as the rest of the state is', async () => {
    const { app } = await buildTestApp();
    await app.inject({ url: '/api/v2/one' });
    await app.inject({ method: 'POST', url: '/_emulate/platform/reset' });
    expect((await entries(app)).map((e) => e.path)).toEqual(['/_emulate/platform/reset']);
  });
});

describe('bearer refusals explain themselves', () => {
  it('says why a token was refused: missing, unknown, expired, deactivated user, missing scope', async () => {
    const log = captureLog();
    const { app, clock } = await buildTestApp({ logLevel: 'info', logDestination: log });
    const url = '/api/v2/admin/users/getCurrent';
    await app.inject({ url });
    await app.inject({ url, headers: bearer('platform_nope') });
    const scoped = await mintToken(app, 'admin', ['api:ontologies-read']);
    await app.inject({ url, headers: bearer(scoped) });
    const none = await mintToken(app, 'admin', []);
    await app.inject({ url, headers: bearer(none) });
    await app.inject({ method: 'POST', url: '/_emulate/platform/users/admin/deactivate' });
    await app.inject({ url, headers: bearer(scoped) });
    clock.advance(3600_000);
    await app.inject({ url, headers: bearer(scoped) });
    const refusals = (await entries(app, `?path=${url}`)).reverse();
    expect(refusals.map((e) => [e.status, e.errorCode])).toEqual([
      [401, 'unauthenticated'],
      [401, 'unauthenticated'],
      [403, 'GetCurrentUserPermissionDenied'],
      [403, 'GetCurrentUserPermissionDenied'],
      [401, 'invalid_token'],
      [401, 'unauthenticated'],
    ]);
    expect(refusals.map((e) => e.reason)).toEqual([
      expect.stringContaining('No bearer token'),
      expect.stringContaining('not one this service knows'),
      'This route needs the scope api:admin-read; the token has the scopes api:ontologies-read.',
      'This route needs the scope api:admin-read; the token has no scopes.',
      expect.stringContaining('"admin" of this token is deactivated'),
      expect.stringContaining('expired'),
    ]);
    // One log line per refusal, at info, with the same reason (the 403s are platform errors, with their id).
    const lines = log.parsed().filter((l) => l.reason !== undefined);
    expect(lines.map((l) => [l.level, l.status, l.reason])).toEqual(refusals.map((e) => [30, e.status, e.reason]));
    expect(lines.filter((l) => l.msg === 'platform error').every((l) => typeof l.errorInstanceId === 'string')).toBe(true);
    expect(lines.filter((l) => l.msg === 'platform error')).toHaveLength(2);
  });
});
