// GET /authorize: validation (always an HTML page, never a redirect), the sign-in page and login_hint.
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/app.js';
import { AUTHORIZE, VERIFIER, authorizeUrl, expectHtmlError, s256 } from './flow.js';

const SEED = `
platform:
  users:
    - { username: alice, display_name: Alice Anderson, email: alice@example.com }
    - { username: gone, active: false }
    - { username: bot, principal_type: service, oauth_client_id: svc }
    - { username: "<img src=x onerror=alert(1)>", display_name: "<script>alert('x')</script>", email: "x\\"y@example.com" }
    - { username: zed }
  oauth_clients:
    - { client_id: web, client_secret: s3cret, redirect_uris: ["https://app.example.com/cb", "http://localhost:3000/cb"] }
    - { client_id: single, redirect_uris: ["https://one.example.com/cb?tenant=a"], allowed_scopes: [api:admin-read, offline_access] }
    - { client_id: machine, client_secret: m, grant_types: [client_credentials], redirect_uris: ["https://m.example.com/cb"] }
`;

const ok = { client_id: 'web', response_type: 'code', redirect_uri: 'https://app.example.com/cb' };

describe('authorize: validation errors are an HTML page, never a redirect', () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    ['missing client_id', { response_type: 'code', redirect_uri: ok.redirect_uri }, /Missing client_id/],
    ['unknown client', { ...ok, client_id: 'nope' }, /Unknown client/],
    ['redirect_uri not registered', { ...ok, redirect_uri: 'https://evil.example.com/cb' }, /Invalid redirect URI/],
    ['redirect_uri differing only in path', { ...ok, redirect_uri: 'https://app.example.com/cb/' }, /Invalid redirect URI/],
    ['redirect_uri with a fragment', { ...ok, redirect_uri: 'https://app.example.com/cb#x' }, /Invalid redirect URI/],
    ['redirect_uri omitted with several registered', { client_id: 'web', response_type: 'code' }, /several registered/],
    ['missing response_type', { client_id: 'web', redirect_uri: ok.redirect_uri }, /Missing response_type/],
    ['response_type token', { ...ok, response_type: 'token' }, /Unsupported response type/],
    ['client without the code grant', { client_id: 'machine', response_type: 'code', redirect_uri: 'https://m.example.com/cb' }, /Unauthorized client/],
    [
      'scope outside allowed_scopes',
      { client_id: 'single', response_type: 'code', scope: 'api:admin-read api:ontologies-read' },
      /Invalid scope[\s\S]*api:ontologies-read/,
    ],
    ['malformed scope', { ...ok, scope: 'a"b' }, /Invalid scope/],
    ['unknown PKCE method', { ...ok, code_challenge: s256(VERIFIER), code_challenge_method: 'S512' }, /Invalid PKCE/],
    ['challenge too short', { ...ok, code_challenge: 'abc', code_challenge_method: 'plain' }, /Invalid PKCE/],
    ['challenge with a bad character', { ...ok, code_challenge: 'a'.repeat(42) + '+' }, /Invalid PKCE/],
    ['S256 challenge that is no SHA-256 digest', { ...ok, code_challenge: 'a'.repeat(60), code_challenge_method: 'S256' }, /Invalid PKCE/],
    ['method without challenge', { ...ok, code_challenge_method: 'S256' }, /Invalid PKCE/],
    ['unknown login_hint', { ...ok, login_hint: 'nobody' }, /Unknown user/],
    ['login_hint of a deactivated user', { ...ok, login_hint: 'gone' }, /User deactivated/],
    ['login_hint of a service user', { ...ok, login_hint: 'bot' }, /Unknown user/],
  ];
  it.each(cases)('%s', async (_name, params, title) => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await app.inject({ url: authorizeUrl(params) });
    expectHtmlError(res, title);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('a repeated parameter is rejected (RFC 6749 §3.1)', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await app.inject({ url: `${authorizeUrl(ok)}&scope=a&scope=b` });
    expectHtmlError(res, /sent more than once/);
  });

  it('escapes what the request carried into the error page', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await app.inject({ url: authorizeUrl({ ...ok, redirect_uri: 'http://localhost:3000/cb?x=<script>alert(1)</script>' }) });
    expectHtmlError(res, /Invalid redirect URI/);
    expect(res.body).not.toContain('<script>alert(1)</script>');
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('authorize: redirect URIs', () => {
  it('uses the only registered URI when redirect_uri is omitted', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await app.inject({ url: authorizeUrl({ client_id: 'single', response_type: 'code', login_hint: 'alice', state: 'st' }) });
    expect(res.statusCode).toBe(302);
    // Its own query parameters are kept, code and state appended.
    expect(res.headers.location).toMatch(/^https:\/\/one\.example\.com\/cb\?tenant=a&code=[A-Za-z0-9_-]{43}&state=st$/);
  });

  it('matches a loopback redirect URI on any port (RFC 8252 §7.3), but not another path', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const other = await app.inject({ url: authorizeUrl({ ...ok, redirect_uri: 'http://localhost:51234/cb', login_hint: 'alice' }) });
    expect(other.statusCode).toBe(302);
    expect(String(other.headers.location)).toMatch(/^http:\/\/localhost:51234\/cb\?code=/);
    // Only the port is free: the rest matches as text, as a non-loopback URI does.
    for (const uri of ['http://localhost:51234/other', 'http://LOCALHOST:51234/cb', 'http://localhost:51234/x/../cb', 'http://127.0.0.1:51234/cb']) {
      expectHtmlError(await app.inject({ url: authorizeUrl({ ...ok, redirect_uri: uri }) }), /Invalid redirect URI/);
    }
  });

  it('does not extend the port rule to other hosts', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await app.inject({ url: authorizeUrl({ ...ok, redirect_uri: 'https://app.example.com:8443/cb' }) });
    expectHtmlError(res, /Invalid redirect URI/);
  });
});

describe('authorize: the sign-in page', () => {
  it('lists every active human user in seed order, default admin first, each a button', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await app.inject({ url: authorizeUrl({ ...ok, scope: 'api:admin-read offline_access' }) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const values = [...res.body.matchAll(/<button type="submit" name="username" value="([^"]*)"/g)].map((m) => m[1]);
    expect(values).toEqual(['admin', 'alice', '&lt;img src=x onerror=alert(1)&gt;', 'zed']);
    expect(res.body).toContain('Alice Anderson');
    expect(res.body).toContain('alice · alice@example.com');
    expect(res.body).toContain('admin@localhost');
    expect(res.body).toContain('<li>api:admin-read</li><li>offline_access</li>');
    expect(res.body).toContain('app.example.com');
  });

  it('shows seeded values escaped', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await app.inject({ url: authorizeUrl(ok) });
    expect(res.body).not.toContain("<script>alert('x')</script>");
    expect(res.body).not.toContain('<img src=x');
    expect(res.body).toContain('&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;');
    expect(res.body).toContain('x&quot;y@example.com');
  });

  it('cannot be framed, allows no inline code but its nonce, and is not cached', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await app.inject({ url: authorizeUrl(ok) });
    expect(res.headers['x-frame-options']).toBe('DENY');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const nonce = /script-src 'nonce-([A-Za-z0-9_-]+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(res.body).toContain(`<script nonce="${nonce}">`);
    expect(res.headers['cache-control']).toBe('no-store');
    const again = await app.inject({ url: authorizeUrl(ok) });
    expect(again.headers['content-security-policy']).not.toBe(csp); // a fresh nonce each time
  });

  it('binds the form to a cookie and posts only the request id, the CSRF token and the username', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await app.inject({ url: authorizeUrl({ ...ok, state: 'do-not-leak', code_challenge: s256(VERIFIER), code_challenge_method: 'S256' }) });
    expect(String(res.headers['set-cookie'])).toMatch(/^platform_signin=[A-Za-z0-9_-]{43}; Path=\/idp\/api\/oauth2\/authorize; HttpOnly; SameSite=Lax$/);
    const fields = [...res.body.matchAll(/<input type="hidden" name="([^"]+)"/g)].map((m) => m[1]);
    expect(fields).toEqual(['request_id', 'csrf_token']);
    expect(res.body).not.toContain('do-not-leak');
    expect(res.body).not.toContain(s256(VERIFIER));
    // A browser that already holds the cookie keeps it.
    const cookie = String(res.headers['set-cookie']).split(';')[0]!;
    const second = await app.inject({ url: authorizeUrl(ok), headers: { cookie } });
    expect(second.headers['set-cookie']).toBeUndefined();
  });

  it('says so when there is nobody to sign in as', async () => {
    const { app } = await buildTestApp({ seed: 'platform:\n  users:\n    - { username: admin, active: false }\n' });
    const res = await app.inject({ url: authorizeUrl({ client_id: 'any', response_type: 'code', redirect_uri: 'http://127.0.0.1:9/cb' }) });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('There are no active users');
    expect(res.body).not.toContain('<button');
  });

  it('renders a page of 10,000 users', async () => {
    const users = Array.from({ length: 10_000 }, (_, i) => ({ username: `user${i}`, email: `user${i}@example.com` }));
    const { app } = await buildTestApp({ seed: { platform: { users } } });
    const res = await app.inject({ url: authorizeUrl({ client_id: 'any', response_type: 'code', redirect_uri: 'http://127.0.0.1:9/cb' }) });
    expect(res.statusCode).toBe(200);
    expect(res.body.match(/<button /g)).toHaveLength(10_001);
    expect(res.body).toContain('Filter 10001 accounts');
  });
});

describe('authorize: login_hint', () => {
  it('skips the page and redirects at once with code and state', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await app.inject({ url: authorizeUrl({ ...ok, login_hint: 'alice', state: '<b>"hi"</b> & more' }) });
    expect(res.statusCode).toBe(302);
    const location = new URL(String(res.headers.location));
    expect(location.origin + location.pathname).toBe('https://app.example.com/cb');
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('state')).toBe('<b>"hi"</b> & more');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('omits state when none was given', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await app.inject({ url: authorizeUrl({ ...ok, login_hint: 'alice' }) });
    expect([...new URL(String(res.headers.location)).searchParams.keys()]).toEqual(['code']);
  });
});

describe('authorize: open mode (no clients seeded)', () => {
  it('accepts any client_id with any absolute http(s) redirect URI', async () => {
    const { app } = await buildTestApp();
    const res = await app.inject({
      url: authorizeUrl({
        client_id: 'whatever',
        response_type: 'code',
        redirect_uri: 'https://anywhere.example/cb',
        scope: 'custom:thing',
        login_hint: 'admin',
      }),
    });
    expect(res.statusCode).toBe(302);
  });

  it('still requires a redirect URI, and an http(s) one', async () => {
    const { app } = await buildTestApp();
    expectHtmlError(await app.inject({ url: authorizeUrl({ client_id: 'x', response_type: 'code' }) }), /redirect_uri is required/);
    expectHtmlError(
      await app.inject({ url: authorizeUrl({ client_id: 'x', response_type: 'code', redirect_uri: 'javascript:alert(1)' }) }),
      /Invalid redirect URI/,
    );
    expectHtmlError(await app.inject({ url: `${AUTHORIZE}?client_id=x&response_type=code&redirect_uri=relative/cb` }), /Invalid redirect URI/);
  });
});

describe('authorize: HEAD stores nothing', () => {
  it('answers 404 and keeps no pending sign-in (a HEAD would otherwise run the GET handler)', async () => {
    const { app, store } = await buildTestApp({ seed: SEED });
    const res = await app.inject({ method: 'HEAD', url: authorizeUrl(ok) });
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('');
    expect((await store.oauth.counts()).authorizeRequests).toBe(0);
    await app.close();
  });
});
