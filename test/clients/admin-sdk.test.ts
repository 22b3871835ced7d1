// Conformance: the platform's TypeScript SDK (@osdk/client + @osdk/foundry.admin) against a live server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformClient } from '@osdk/client';
import { Enrollments, Users } from '@osdk/foundry.admin';
import { startEmulator, type Emulator } from '../../src/index.js';

let emulator: Emulator;

async function token(username: string, scopes: string[]): Promise<string> {
  const res = await fetch(`${emulator.url}/_emulate/platform/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, scopes }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

beforeAll(async () => {
  emulator = await startEmulator({
    seed: `
platform:
  users:
    - { username: alice, given_name: Alice, family_name: Anderson, email: alice@example.com, attributes: { team: [red] } }
  enrollment: { name: Acme Enrollment }
`,
  });
});
afterAll(() => emulator.close());

describe('platform SDK: admin', () => {
  it('Users.getCurrent returns the seeded user', async () => {
    const t = await token('alice', ['api:admin-read']);
    const client = createPlatformClient(emulator.url, async () => t);
    const user = await Users.getCurrent(client);
    expect(user).toMatchObject({
      username: 'alice',
      givenName: 'Alice',
      familyName: 'Anderson',
      email: 'alice@example.com',
      realm: 'platform-internal-realm',
      organization: 'ri.organization.main.organization.default',
      status: 'ACTIVE',
    });
    expect(user.attributes).toMatchObject({ team: ['red'], 'idp:email:primary': ['alice@example.com'] });
  });

  it('Enrollments.getCurrent returns the seeded enrollment', async () => {
    const t = await token('alice', ['api:admin-read']);
    const client = createPlatformClient(emulator.url, async () => t);
    const enrollment = await Enrollments.getCurrent(client, { preview: true });
    expect(enrollment).toMatchObject({ rid: 'ri.enrollment..enrollment.default', name: 'Acme Enrollment' });
    expect(Number.isNaN(Date.parse(String(enrollment.createdTime)))).toBe(false);
  });

  it('surfaces a 403 as PalantirApiError with the platform fields', async () => {
    const t = await token('alice', []);
    const client = createPlatformClient(emulator.url, async () => t);
    const error = await Users.getCurrent(client).then(
      () => undefined,
      (e: unknown) => e as Record<string, unknown>,
    );
    expect(error).toBeDefined();
    expect(error!.constructor.name).toBe('PalantirApiError');
    expect(error).toMatchObject({
      statusCode: 403,
      errorCode: 'PERMISSION_DENIED',
      errorName: 'GetCurrentUserPermissionDenied',
      parameters: {},
    });
    expect(error!.errorInstanceId).toMatch(/^[0-9a-f-]{36}$/);
    const other = await Enrollments.getCurrent(client).catch((e: Record<string, unknown>) => e);
    expect(other).toMatchObject({ statusCode: 403, errorName: 'GetCurrentEnrollmentPermissionDenied' });
  });

  it('surfaces a 401 for a token the server does not know', async () => {
    const client = createPlatformClient(emulator.url, async () => 'platform_not-a-token');
    const error = await Users.getCurrent(client).catch((e: Record<string, unknown>) => e);
    expect(error).toMatchObject({ statusCode: 401 });
  });
});
