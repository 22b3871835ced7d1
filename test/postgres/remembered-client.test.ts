// client_credentials authenticates against the client as this instance last read it and stores the token only
// if the stored client still equals it (grants/remembered-client.ts). A change made on another instance must
// therefore be obeyed at once: a rotated secret, a grant type taken away, a reset.
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { instances } from './helpers.js';

const TOKEN_URL = '/idp/api/oauth2/token';

async function clientCredentials(e: Emulator, secret: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${e.url}${TOKEN_URL}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`web:${secret}`).toString('base64')}` },
    body: 'grant_type=client_credentials&scope=api%3Aadmin-read',
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function putClient(e: Emulator, body: object): Promise<void> {
  const res = await fetch(`${e.url}/_emulate/platform/oauth-clients/web`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

describe('client_credentials against a remembered client, on two instances', () => {
  it('obeys a secret rotated, a grant taken away and a reset made on the other instance', async () => {
    const [a, b] = await instances(2);
    for (let i = 0; i < 3; i++) expect((await clientCredentials(b!, 's3cret')).status).toBe(200); // B now remembers the client
    const issued = (await clientCredentials(b!, 's3cret')).body.access_token as string;
    const me = await fetch(`${a!.url}/api/v2/admin/users/getCurrent`, { headers: { authorization: `Bearer ${issued}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { username: string }).username).toBe('web');

    await putClient(a!, { client_secret: 'n3w', redirect_uris: ['https://app.example.com/cb'] });
    const old = await clientCredentials(b!, 's3cret');
    expect({ status: old.status, error: old.body.error }).toEqual({ status: 401, error: 'invalid_client' });
    expect((await clientCredentials(b!, 'n3w')).status).toBe(200);

    await putClient(a!, { client_secret: 'n3w', redirect_uris: ['https://app.example.com/cb'], grant_types: ['authorization_code'] });
    const refused = await clientCredentials(b!, 'n3w');
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: 'unauthorized_client' });

    await a!.reset(); // the seed again: the original secret and grants
    expect((await clientCredentials(b!, 'n3w')).status).toBe(401);
    expect((await clientCredentials(b!, 's3cret')).status).toBe(200);
  });

  it('many requests at once on both instances each get a working token of their own', async () => {
    const [a, b] = await instances(2);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => clientCredentials(i % 2 ? a! : b!, 's3cret')));
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    const tokens = answers.map((r) => r.body.access_token as string);
    expect(new Set(tokens).size).toBe(60);
    for (const token of tokens) expect(await a!.server.store.tokens.findAccess(token)).toMatchObject({ clientId: 'web', scopes: ['api:admin-read'] });
  });
});
