// Issue 25: a client that joins form fields with `;` (or puts a code into a malformed grant_type) sends its
// secrets inside the value of another field. A refusal quotes a refused value only when it looks like a value
// of its field (letters, digits and `_:.@-`); otherwise it describes it. Neither the answer, the log nor the
// journal may carry the secret.
import { describe, expect, it } from 'vitest';
import { buildTestApp, mintToken } from '../helpers/app.js';
import { AUTHORIZE, FORM, TOKEN, basic } from '../oauth/flow.js';
import { captureLog } from './helpers.js';

const S = {
  password: 'zz-joined-password-6c1d',
  clientSecret: 'zz-joined-client-secret-88ae',
  code: 'zzJoinedCodeA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7',
  refresh: 'platform_refresh_zzJoinedRefresh0123456789abcdefghijklmnopq',
  verifier: 'zz-joined-verifier-'.padEnd(50, 'q'),
};

const SEED = {
  platform: {
    users: [{ username: 'alice' }],
    oauth_clients: [{ client_id: 'web-app', client_secret: 'right-secret', redirect_uris: ['http://localhost:3000/cb'] }],
  },
};

describe('values joined with ";" never carry a secret into a refusal', () => {
  it('the fuzzer inputs of issue 25 leave no secret in the answers, the log or the journal', async () => {
    const log = captureLog();
    const { app } = await buildTestApp({ seed: SEED, logLevel: 'debug', logDestination: log });
    const raw = (payload: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url: TOKEN, headers: { ...FORM, ...headers }, payload });
    const bodies: string[] = [];
    const answers = [
      await raw(`grant_type=password;username=alice;password=${S.password};client_id=web-app`),
      await raw(`grant_type=password%3Busername%3Dalice%3Bpassword%3D${S.password}`),
      await raw(`grant_type=client_credentials&client_id=web-app;client_secret=${S.clientSecret}`),
      await raw(`grant_type=client_credentials`, basic(`web-app;client_secret=${S.clientSecret}`, 'x')),
      await raw(`grant_type=client_credentials&client_id=web-app`, basic(`web-app;client_secret=${S.clientSecret}`, 'x')),
      await raw(`grant_type=authorization_code;code=${S.code};code_verifier=${S.verifier}&client_id=web-app`),
      await raw(`grant_type=authorization_code+code=${S.code}`),
      await raw(`grant_type=refresh_token;refresh_token=${S.refresh}`),
      await app.inject({ url: `${AUTHORIZE}?client_id=web-app;client_secret=${S.clientSecret}&response_type=code` }),
      await app.inject({ url: `${AUTHORIZE}?client_id=web-app&response_type=code;code=${S.code}&redirect_uri=http://localhost:3000/cb` }),
      await app.inject({
        url: `${AUTHORIZE}?client_id=web-app&response_type=code&redirect_uri=http://localhost:3000/cb&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256;password=${S.password}`,
      }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBeGreaterThanOrEqual(400);
      expect(answer.statusCode).toBeLessThan(500);
      bodies.push(answer.body);
    }

    const journal = JSON.stringify(app.journal.list());
    const logText = log.lines.join('');
    expect(app.journal.list({ refusals: true }).length).toBe(answers.length);
    for (const secret of Object.values(S)) {
      expect(journal.includes(secret), `journal carries ${secret}`).toBe(false);
      expect(logText.includes(secret), `log carries ${secret}`).toBe(false);
      for (const body of bodies) expect(body.includes(secret), `an answer carries ${secret}`).toBe(false);
    }
    // The refusal still says what was wrong, describing the value it would not quote.
    const reasons = app.journal
      .list({ refusals: true })
      .map((e) => e.reason)
      .join('\n');
    expect(reasons).toMatch(/grant_type of \d+ characters holding "=" and ";"/);
    expect(reasons).toMatch(/client_id of \d+ characters holding "=" and ";"/);
  });

  it('a value that looks like its field is still quoted', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await app.inject({ method: 'POST', url: TOKEN, headers: FORM, payload: 'grant_type=urn:ietf:params:oauth:grant-type:device_code' });
    expect(res.json().error_description).toContain('"urn:ietf:params:oauth:grant-type:device_code"');
    const unknown = await app.inject({
      method: 'POST',
      url: TOKEN,
      headers: FORM,
      payload: 'grant_type=client_credentials&client_id=someone.else@example.test&client_secret=x',
    });
    expect(JSON.stringify(app.journal.list({ refusals: true }).at(0))).toContain('someone.else@example.test');
    expect(unknown.statusCode).toBe(401);
  });

  it('a query value holding a credential field, encoded, is hidden in the journal and the log as its reason hides it', async () => {
    const log = captureLog();
    const { app } = await buildTestApp({ seed: { platform: { users: [{ username: 'dev' }] } }, logLevel: 'debug', logDestination: log });
    const token = await mintToken(app, 'dev', ['api:datasets-read', 'api:datasets-write']);
    const created = await app.inject({
      method: 'POST',
      url: '/api/v2/datasets',
      headers: { authorization: `Bearer ${token}` },
      payload: { name: 'joined', parentFolderRid: 'ri.compass.main.folder.root' },
    });
    const rid = (created.json() as { rid: string }).rid;
    const branch = encodeURIComponent(`master;client_secret=${S.clientSecret}`);
    const res = await app.inject({
      method: 'POST',
      url: `/api/v2/datasets/${rid}/transactions?branchName=${branch}&tag=plain`,
      headers: { authorization: `Bearer ${token}` },
      payload: { transactionType: 'APPEND' },
    });
    expect(res.statusCode).toBe(404);
    const entry = app.journal.list({ refusals: true }).at(0)!;
    expect(entry.path).toContain('branchName=[redacted]');
    expect(entry.path).toContain('tag=plain'); // a plain value is kept
    expect(JSON.stringify(app.journal.list())).not.toContain(S.clientSecret);
    expect(log.lines.join('\n')).not.toContain(S.clientSecret);
  });
});
