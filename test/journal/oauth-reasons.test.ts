// Every refusal kind of the token endpoint and of authorize says in its journal entry what was expected and
// what came (issue 13, DESIGN principle 11); the authorize error pages say how to fix it.
import { beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { AUTHORIZE, TOKEN, VERIFIER, authorizeUrl, basic, codeFor, postForm, s256 } from '../oauth/flow.js';
import type { JournalEntry } from '../../src/http/journal/index.js';

const SEED = {
  platform: {
    users: [{ username: 'alice' }],
    oauth_clients: [
      { client_id: 'web', redirect_uris: ['http://localhost:3000/cb', 'https://app.example/cb'], allowed_scopes: ['api:admin-read', 'offline_access'] },
      {
        client_id: 'svc',
        client_secret: 'svc-secret-value-123',
        redirect_uris: ['http://localhost:3000/cb'],
        grant_types: ['client_credentials'],
        allowed_scopes: ['api:admin-read'],
      },
      { client_id: 'conf', client_secret: 'conf-secret-value-456', redirect_uris: ['http://localhost:3000/cb'] },
    ],
  },
};

const REDIRECT = 'http://localhost:3000/cb';

function last(app: FastifyInstance): JournalEntry {
  const entry = app.journal.list({ limit: 1 })[0];
  if (!entry) throw new Error('empty journal');
  return entry;
}

/** Sends a token request and returns its journal entry. */
async function token(app: FastifyInstance, params: Record<string, string>, headers: Record<string, string> = {}): Promise<JournalEntry> {
  const res = await postForm(app, TOKEN, params, headers);
  expect(res.statusCode).toBeGreaterThanOrEqual(400);
  const entry = last(app);
  expect(entry).toMatchObject({ method: 'POST', path: TOKEN, status: res.statusCode, errorCode: res.json().error });
  return entry;
}

describe('token endpoint refusals carry a reason', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp({ seed: SEED });
  });

  it('invalid_request: no grant_type, no client, two client authentications, two client ids, no code, no refresh token', async () => {
    const { app } = t;
    expect((await token(app, { client_id: 'web' })).reason).toMatch(/no grant_type; expected authorization_code, refresh_token or client_credentials/);
    expect((await token(app, { grant_type: 'client_credentials' })).reason).toMatch(/No client was named/);
    expect((await token(app, { grant_type: 'client_credentials', client_secret: 'x' }, basic('svc', 'svc-secret-value-123'))).reason).toMatch(/secret twice/);
    expect((await token(app, { grant_type: 'client_credentials', client_id: 'web' }, basic('svc', 'svc-secret-value-123'))).reason).toBe(
      'The body says client_id "web", the Basic header says "svc"; they must name the same client.',
    );
    expect((await token(app, { grant_type: 'authorization_code', client_id: 'web' })).reason).toMatch(/needs the code the redirect carried/);
    expect((await token(app, { grant_type: 'refresh_token', client_id: 'web' })).reason).toMatch(/needs the refresh token/);
  });

  it('unsupported_grant_type names what came and what is expected', async () => {
    const e = await token(t.app, { grant_type: 'password', client_id: 'web' });
    expect(e.errorCode).toBe('unsupported_grant_type');
    expect(e.reason).toBe('grant_type "password" is not one this service knows; expected authorization_code, refresh_token or client_credentials.');
  });

  it('invalid_client: unknown client, wrong secret, missing secret, secret sent to a public client, malformed Basic', async () => {
    const { app } = t;
    expect((await token(app, { grant_type: 'client_credentials', client_id: 'ghost' })).reason).toMatch(/No OAuth client "ghost" is registered/);
    expect((await token(app, { grant_type: 'client_credentials' }, basic('svc', 'wrong-secret'))).reason).toBe(
      'The secret sent for the client "svc" is not the registered one.',
    );
    expect((await token(app, { grant_type: 'client_credentials', client_id: 'svc' })).reason).toMatch(/registered with a secret, but the request sent none/);
    expect((await token(app, { grant_type: 'authorization_code', client_id: 'web', client_secret: 'zzz', code: 'c' })).reason).toMatch(
      /registered without a secret \(public\), but the request sent one/,
    );
    expect((await token(app, { grant_type: 'client_credentials' }, { authorization: 'Basic !!!' })).reason).toMatch(
      /does not decode to client_id:client_secret/,
    );
    expect(last(app).clientId).toBeUndefined();
  });

  it('unauthorized_client names the grant asked and the ones registered', async () => {
    const e = await token(t.app, { grant_type: 'authorization_code', code: 'x' }, basic('svc', 'svc-secret-value-123'));
    expect(e.errorCode).toBe('unauthorized_client');
    expect(e.reason).toBe('The client "svc" asked for the authorization_code grant; it is registered for "client_credentials".');
    expect(e.clientId).toBe('svc');
  });

  it('invalid_scope names the scope and the allowed ones (client credentials and refresh)', async () => {
    const { app } = t;
    const e = await token(app, { grant_type: 'client_credentials', scope: 'api:ontologies-write' }, basic('svc', 'svc-secret-value-123'));
    expect(e.errorCode).toBe('invalid_scope');
    expect(e.reason).toBe('The client is not allowed the scope "api:ontologies-write". The client "svc" may ask for "api:admin-read".');

    const code = await codeFor(app, { client_id: 'web', response_type: 'code', redirect_uri: REDIRECT, scope: 'offline_access' });
    const tokens = await postForm(app, TOKEN, { grant_type: 'authorization_code', client_id: 'web', code });
    const refresh = tokens.json().refresh_token as string;
    const wider = await token(app, { grant_type: 'refresh_token', client_id: 'web', refresh_token: refresh, scope: 'offline_access api:admin-read' });
    expect(wider.reason).toBe(
      `The refresh asked for "api:admin-read", beyond the original authorization's "offline_access"; a refresh may narrow scopes, never widen them.`,
    );
    const outside = await token(app, { grant_type: 'refresh_token', client_id: 'web', refresh_token: refresh, scope: 'api:ontologies-read' });
    expect(outside.reason).toBe('The client is not allowed the scope "api:ontologies-read". The client may ask for "api:admin-read", "offline_access".');
  });

  it('invalid_grant for codes: unknown, reused, expired, another client, redirect_uri mismatch, deactivated user', async () => {
    const { app, clock } = t;
    const authorize = { client_id: 'web', response_type: 'code', redirect_uri: REDIRECT };
    expect((await token(app, { grant_type: 'authorization_code', client_id: 'web', code: 'nope' })).reason).toMatch(/not one this service issued/);

    const code = await codeFor(app, authorize);
    expect((await postForm(app, TOKEN, { grant_type: 'authorization_code', client_id: 'web', code })).statusCode).toBe(200);
    expect((await token(app, { grant_type: 'authorization_code', client_id: 'web', code })).reason).toMatch(/already exchanged once.*revoked/);

    const late = await codeFor(app, authorize);
    clock.advance(10 * 60 * 1000);
    expect((await token(app, { grant_type: 'authorization_code', client_id: 'web', code: late })).reason).toMatch(
      /^The code expired at 2026-.*Z \(codes live 10 minutes\); it is now 2026-.*Z\.$/,
    );

    const other = await codeFor(app, { ...authorize, client_id: 'conf' });
    expect((await token(app, { grant_type: 'authorization_code', code: other }, basic('conf', 'wrong'))).reason).toMatch(/not the registered one/);
    const stolen = await codeFor(app, { ...authorize, client_id: 'conf' });
    expect((await token(app, { grant_type: 'authorization_code', client_id: 'web', code: stolen })).reason).toBe(
      'The code was issued to the client "conf"; the client "web" presented it.',
    );

    const moved = await codeFor(app, authorize);
    expect((await token(app, { grant_type: 'authorization_code', client_id: 'web', code: moved, redirect_uri: 'https://app.example/cb' })).reason).toBe(
      'The token request sent redirect_uri "https://app.example/cb"; the authorization request used "http://localhost:3000/cb".',
    );

    const gone = await codeFor(app, authorize, 'alice');
    await app.inject({ method: 'POST', url: '/_emulate/platform/users/alice/deactivate' });
    expect((await token(app, { grant_type: 'authorization_code', client_id: 'web', code: gone })).reason).toBe(
      'The user "alice" who signed in is now deactivated.',
    );
  });

  it('invalid_grant for PKCE: mismatch, missing verifier, downgrade (a verifier without a challenge)', async () => {
    const { app } = t;
    const base = { client_id: 'web', response_type: 'code', redirect_uri: REDIRECT };
    const withS256 = { ...base, code_challenge: s256(VERIFIER), code_challenge_method: 'S256' };
    const mismatch = await codeFor(app, withS256);
    expect((await token(app, { grant_type: 'authorization_code', client_id: 'web', code: mismatch, code_verifier: 'b'.repeat(43) })).reason).toBe(
      'PKCE: code_verifier does not match the code_challenge. (the authorization request had code_challenge_method S256).',
    );
    const missing = await codeFor(app, withS256);
    expect((await token(app, { grant_type: 'authorization_code', client_id: 'web', code: missing })).reason).toMatch(
      /^PKCE: code_verifier is required.*S256\)\.$/,
    );
    const downgrade = await codeFor(app, base);
    expect((await token(app, { grant_type: 'authorization_code', client_id: 'web', code: downgrade, code_verifier: VERIFIER })).reason).toBe(
      'PKCE: code_verifier was sent but the authorization request had no code_challenge. (the authorization request had no code_challenge).',
    );
  });

  it('invalid_grant for refresh tokens: unknown, reused, expired, another client, deactivated user', async () => {
    const { app, clock } = t;
    const fresh = async (username = 'admin') => {
      const code = await codeFor(app, { client_id: 'web', response_type: 'code', redirect_uri: REDIRECT, scope: 'offline_access' }, username);
      return (await postForm(app, TOKEN, { grant_type: 'authorization_code', client_id: 'web', code })).json().refresh_token as string;
    };
    expect((await token(app, { grant_type: 'refresh_token', client_id: 'web', refresh_token: 'platform_refresh_nope' })).reason).toMatch(
      /not one this service issued/,
    );
    const used = await fresh();
    expect((await postForm(app, TOKEN, { grant_type: 'refresh_token', client_id: 'web', refresh_token: used })).statusCode).toBe(200);
    expect((await token(app, { grant_type: 'refresh_token', client_id: 'web', refresh_token: used })).reason).toMatch(
      /already used once.*revokes the whole authorization/,
    );
    const theirs = await fresh();
    expect((await token(app, { grant_type: 'refresh_token', refresh_token: theirs }, basic('conf', 'conf-secret-value-456'))).reason).toBe(
      'The refresh token was issued to the client "web"; the client "conf" presented it.',
    );
    const alices = await fresh('alice');
    await app.inject({ method: 'POST', url: '/_emulate/platform/users/alice/deactivate' });
    expect((await token(app, { grant_type: 'refresh_token', client_id: 'web', refresh_token: alices })).reason).toBe(
      'The user "alice" of this refresh token is now deactivated.',
    );
    const old = await fresh();
    clock.advance(24 * 3600 * 1000);
    expect((await token(app, { grant_type: 'refresh_token', client_id: 'web', refresh_token: old })).reason).toMatch(
      /expired at .* \(refresh tokens live 24 hours\)/,
    );
  });
});

describe('authorize refusals carry a reason, and the page says how to fix it', () => {
  let app: FastifyInstance;
  beforeEach(async () => {
    ({ app } = await buildTestApp({ seed: SEED }));
  });

  async function refuse(params: Record<string, string>): Promise<{ body: string; entry: JournalEntry }> {
    const res = await app.inject({ url: authorizeUrl(params) });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const entry = last(app);
    expect(entry).toMatchObject({ method: 'GET', status: 400 });
    expect(entry.path.startsWith(`${AUTHORIZE}?`)).toBe(true);
    return { body: res.body, entry };
  }

  it('unknown client id: names it and the registered ones', async () => {
    const { body, entry } = await refuse({ client_id: 'nobody', response_type: 'code' });
    expect(entry.errorCode).toBe('unknown_client');
    expect(entry.reason).toBe(
      'Unknown client: No OAuth client "nobody" is registered with this service. Registered client ids: "web", "svc", "conf". Use one of them, or add the client under platform.oauth_clients in the seed.',
    );
    expect(body).toContain('No OAuth client &quot;nobody&quot; is registered');
    expect(body).toContain('&quot;web&quot;, &quot;svc&quot;, &quot;conf&quot;');
  });

  it('redirect URI not registered: names the one sent and the registered ones, escaped on the page', async () => {
    const sent = 'http://evil.example/cb?x=<script>';
    const { body, entry } = await refuse({ client_id: 'web', response_type: 'code', redirect_uri: sent });
    expect(entry.errorCode).toBe('invalid_redirect_uri');
    expect(entry.reason).toContain(`the one sent is "${sent}"; the registered ones are "http://localhost:3000/cb", "https://app.example/cb"`);
    expect(body).not.toContain('<script>');
    expect(body).toContain('http://evil.example/cb?x=&lt;script&gt;');
    expect(body).toContain('&quot;https://app.example/cb&quot;');
    expect(body).toContain('add it to redirect_uris');
  });

  it('scope not allowed: names it and the allowed ones', async () => {
    const { body, entry } = await refuse({
      client_id: 'web',
      response_type: 'code',
      redirect_uri: REDIRECT,
      scope: 'api:admin-read api:connectivity-connection-write',
    });
    expect(entry.errorCode).toBe('invalid_scope');
    expect(entry.reason).toBe(
      'Invalid scope: The client is not allowed the scope "api:connectivity-connection-write". The client "web" may ask for "api:admin-read", "offline_access". Ask only for those, or add the scope to allowed_scopes of this client in the seed.',
    );
    expect(body).toContain('may ask for &quot;api:admin-read&quot;, &quot;offline_access&quot;');
  });

  it('bad PKCE method: names the method', async () => {
    const { entry } = await refuse({
      client_id: 'web',
      response_type: 'code',
      redirect_uri: REDIRECT,
      code_challenge: s256(VERIFIER),
      code_challenge_method: 'S512',
    });
    expect(entry.errorCode).toBe('invalid_pkce_parameters');
    expect(entry.reason).toBe(
      'PKCE at authorize: code_challenge_method "S512" is not supported; use S256 or plain. (sent code_challenge_method "S512", a code_challenge of 43 characters).',
    );
  });

  it('response_type missing or other than code', async () => {
    expect((await refuse({ client_id: 'web', redirect_uri: REDIRECT })).entry.reason).toMatch(/must set response_type=code; it has no response_type/);
    const other = await refuse({ client_id: 'web', redirect_uri: REDIRECT, response_type: 'token' });
    expect(other.entry.errorCode).toBe('unsupported_response_type');
    expect(other.entry.reason).toMatch(/response_type "token" is not supported; only "code" is/);
  });

  it('a client without the code grant: names the grants it has', async () => {
    const { entry } = await refuse({ client_id: 'svc', response_type: 'code', redirect_uri: REDIRECT });
    expect(entry.reason).toMatch(/it is registered for "client_credentials"\. Add authorization_code/);
  });

  it('redacts state and the PKCE challenge stays, the code in the redirect never reaches the journal', async () => {
    const res = await app.inject({
      url: authorizeUrl({ client_id: 'web', response_type: 'code', redirect_uri: REDIRECT, state: 'secret-state', login_hint: 'admin' }),
    });
    expect(res.statusCode).toBe(302);
    const entry = last(app);
    expect(entry.path).toContain('state=[redacted]');
    expect(entry.path).not.toContain('secret-state');
    expect(entry.clientId).toBeUndefined();
  });
});
