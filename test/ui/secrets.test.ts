// No secret value reaches the event stream or anything the dashboard reads or serves (issue 13): secrets go
// through the OAuth, connectivity, control and compute-module routes while a stream is open, then the stream's
// bytes, every dashboard listing and the dashboard's own files are searched for each of them.
// (test/journal/secrets.test.ts searches the journal and the log the same way; the browser test, the page.)
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/index.js';

const S = {
  clientSecret: 'zz-ui-client-secret-41a7',
  wrongSecret: 'zz-ui-wrong-secret-9c2e',
  lateSecret: 'zz-ui-late-secret-5d1f',
  connectionSecret: 'zz-ui-conn-secret-2f8a',
  moduleToken: 'zz-ui-module-token-3e9d7c',
  verifier: 'zz-ui-verifier-'.padEnd(50, 'v'),
};

describe('secrets never reach the event stream or the dashboard', () => {
  it('after secrets went through every route family', async () => {
    const emulator = await startEmulator({
      seed: {
        platform: {
          users: [{ username: 'alice' }],
          oauth_clients: [{ client_id: 'conf', client_secret: S.clientSecret, redirect_uris: ['http://localhost:3000/cb'] }],
          connections: [{ rid: 'ri.conn.1', display_name: 'C', parent_folder_rid: 'ri.f' }],
          compute_modules: {
            runtimes: [{ runtime_id: 'rt-1', module_auth_token: S.moduleToken }],
            deployed_apps: [{ deployed_app_rid: 'ri.app.a', runtime_id: 'rt-1' }],
          },
        },
      },
    });
    const url = emulator.url;
    const issued: string[] = [];
    const abort = new AbortController();
    const stream = await fetch(`${url}/_emulate/platform/events`, { signal: abort.signal });
    let received = '';
    const reading = (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) received += decoder.decode(chunk, { stream: true });
      } catch {
        // aborted at the end
      }
    })();
    try {
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      const basic = (id: string, secret: string) => ({ ...form, authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` });
      const cc = await fetch(`${url}/idp/api/oauth2/token`, { method: 'POST', headers: basic('conf', S.clientSecret), body: 'grant_type=client_credentials' });
      issued.push((await cc.json()).access_token);
      await fetch(`${url}/idp/api/oauth2/token`, {
        method: 'POST',
        headers: form,
        body: `grant_type=client_credentials&client_id=conf&client_secret=${S.wrongSecret}`,
      });
      await fetch(`${url}/idp/api/oauth2/token`, {
        method: 'POST',
        headers: form,
        body: `grant_type=authorization_code&code=nope&code_verifier=${S.verifier}&client_id=conf&client_secret=${S.clientSecret}`,
      });
      const minted = await (
        await fetch(`${url}/_emulate/platform/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":"alice"}' })
      ).json();
      issued.push(minted.access_token);
      await fetch(`${url}/api/v2/admin/users/getCurrent?access_token=${minted.access_token}`);
      await fetch(`${url}/_emulate/platform/connections/ri.conn.1`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ display_name: 'C', parent_folder_rid: 'ri.f', secrets: { apiKey: S.connectionSecret } }),
      });
      await fetch(`${url}/_emulate/platform/oauth-clients/late`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_secret: S.lateSecret }),
      });
      await fetch(`${url}/_emulate/platform/compute-modules/runtimes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ runtimeId: 'rt-1', moduleAuthToken: S.moduleToken }),
      });
      await fetch(`${url}/_emulate/platform/compute-modules/runtimes/rt-1/job`, { headers: { 'module-auth-token': S.moduleToken } });

      // Everything the dashboard reads, and serves.
      const reads: string[] = [];
      for (const path of ['users', 'clients', 'tokens', 'connections', 'ontologies', 'compute-modules/runtimes', 'journal']) {
        const res = await fetch(`${url}/_emulate/platform/${path}`);
        expect(res.status, path).toBe(200);
        reads.push(await res.text());
      }
      for (const asset of ['', '/dashboard.js', '/dashboard.css']) reads.push(await (await fetch(`${url}/_emulate/ui${asset}`)).text());
      expect(reads.join('')).toContain('apiKey'); // the connection's secret is listed, by name

      // The stream has seen the last request once a journal entry for it arrived.
      for (let turn = 0; turn < 200 && !received.includes('"path":"/_emulate/platform/compute-modules/runtimes"'); turn++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(received).toContain('event: journal');
      expect(received).toContain('event: change');
      for (const secret of [...Object.values(S), ...issued]) {
        expect(received.includes(secret), `event stream carries ${secret}`).toBe(false);
        expect(reads.join('\n').includes(secret), `dashboard reads carry ${secret}`).toBe(false);
      }
    } finally {
      abort.abort();
      await reading;
      await emulator.close();
    }
  });
});
