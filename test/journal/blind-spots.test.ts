// The journal's blind spots (issue 25): a client_credentials token entry names the service user it acts as, and
// the in-pod HTTPS listener's requests (Python modules) are journaled like the public port's.
import { afterAll, describe, expect, it } from 'vitest';
import { request as httpsRequest } from 'node:https';
import { buildTestApp } from '../helpers/app.js';
import { TOKEN, basic, postForm } from '../oauth/flow.js';
import { startEmulator, type Emulator } from '../../src/index.js';
import type { JournalEntry } from '../../src/http/journal/index.js';

const SEED = {
  platform: {
    users: [{ username: 'reporting-bot', principal_type: 'service', oauth_client_id: 'named' }],
    oauth_clients: [
      {
        client_id: 'svc',
        client_secret: 'svc-secret-value-123',
        redirect_uris: ['http://localhost:3000/cb'],
        grant_types: ['client_credentials'],
        allowed_scopes: ['api:admin-read'],
      },
      {
        client_id: 'named',
        client_secret: 'named-secret-value-456',
        redirect_uris: ['http://localhost:3000/cb'],
        grant_types: ['client_credentials'],
        allowed_scopes: ['api:admin-read'],
      },
    ],
  },
};

describe("the journal names a client_credentials token's service user", () => {
  it('for the automatic principal and for a seeded service user, on every mint', async () => {
    const t = await buildTestApp({ seed: SEED });
    try {
      for (const [client, secret, username] of [
        ['svc', 'svc-secret-value-123', 'svc'],
        ['named', 'named-secret-value-456', 'reporting-bot'],
      ] as const) {
        for (let round = 0; round < 2; round++) {
          const res = await postForm(t.app, TOKEN, { grant_type: 'client_credentials', scope: 'api:admin-read' }, basic(client, secret));
          expect(res.statusCode).toBe(200);
          const entry = t.app.journal.list({ limit: 1 })[0]!;
          expect(entry).toMatchObject({ method: 'POST', path: TOKEN, status: 200, clientId: client, username });
          expect(JSON.stringify(entry)).not.toContain(res.json().access_token);
        }
      }
    } finally {
      await t.app.close();
    }
  });
});

describe('the in-pod listener is journaled', () => {
  let emulator: Emulator | undefined;
  afterAll(() => emulator?.close());

  it('records its polls that hand out a job and its refusals, in the public journal', async () => {
    emulator = await startEmulator({ seed: { platform: { compute_modules: { poll_timeout_ms: 200 } } } });
    const RUNTIMES = '/_emulate/platform/compute-modules/runtimes';
    const opened = await fetch(`${emulator.url}${RUNTIMES}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ runtimeId: 'rt-journal-pod', deployedAppRid: 'ri.app.journal-pod' }),
    });
    const session = (await opened.json()) as { moduleAuthToken: string; getJobUri: string; podRuntime: { host: string; port: number; caCertificate: string } };
    const tokenRes = await fetch(`${emulator.url}/_emulate/platform/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin' }),
    });
    const bearer = ((await tokenRes.json()) as { access_token: string }).access_token;
    const submitted = await fetch(`${emulator.url}/analytics-backend-multiplexer/api/module-group-multiplexer/deployed-apps/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ deployedAppRid: 'ri.app.journal-pod', queryType: 'q', query: {} }),
    });
    const jobId = ((await submitted.json()) as { id: string }).id;
    const path = new URL(session.getJobUri).pathname;
    const pod = (token: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpsRequest(
          {
            host: session.podRuntime.host,
            port: session.podRuntime.port,
            path,
            headers: { 'module-auth-token': token },
            ca: session.podRuntime.caCertificate,
            agent: false,
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
          },
        );
        req.on('error', reject);
        req.end();
      });
    expect(await pod(session.moduleAuthToken)).toBe(200);
    expect(await pod('x'.repeat(32))).toBe(401);
    const journal = (await (await fetch(`${emulator.url}/_emulate/platform/journal?limit=20`)).json()) as { entries?: JournalEntry[] } | JournalEntry[];
    const entries = Array.isArray(journal) ? journal : (journal.entries ?? []);
    const polls = entries.filter((e) => e.path === path);
    expect(polls.map((e) => e.status).sort()).toEqual([200, 401]);
    expect(polls.find((e) => e.status === 401)).toMatchObject({ errorCode: 'invalid_module_auth_token', reason: expect.any(String) });
    expect(JSON.stringify(entries)).not.toContain(session.moduleAuthToken);
    expect(jobId).toBeTruthy();
  });
});
