// Conformance: the module environment run-module gives a deployed app's module (docs/functions.md, "Module
// environment"). A TypeScript module (@palantir/compute-module 0.2.7) declares its source and reads it with the
// SDK's getCredential; a Python module (foundry-compute-modules 0.34.0) gets a token with CLIENT_ID/CLIENT_SECRET
// through the SDK's own `oauth()` (HTTPS to the TLS listener, `/multipass/api/` aliased to ours) and reads its
// source from the query context. Files are 0600 and gone after run-module ends; no secret in its output or the journal.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformClient } from '@osdk/client';
import { Queries } from '@osdk/foundry.ontologies';
import type { CliResult } from '../helpers/cli.js';
import type { Emulator } from '../../src/index.js';
import { hasPython, PYTHON, seedFor, startFunctions, type LiveFunctions } from './live.js';

const WEATHER = 'ri.magritte..source.weather';
const API_KEY = 'wx-secret-4711-abcdef';
const CLIENT_SECRET = 'geo-module-secret-0815';

const environmentSeed = (app: { rid: string; runtime: string; namespace: string }) =>
  seedFor({
    ...app,
    extra: `        client_id: geo-module
        sources: [{ api_name: weather, connection: ${WEATHER} }]
  path_aliases: { "/multipass/api/": "/idp/api/" }
  oauth_clients:
    - { client_id: geo-module, client_secret: ${CLIENT_SECRET}, grant_types: [client_credentials] }
  connections:
    - { rid: ${WEATHER}, display_name: Weather, parent_folder_rid: ri.compass.main.folder.x, domains: [{ host: api.weather.example, port: 443, scheme: HTTPS }] }
`,
  });

/** The secret values are set as a user sets them, before the module starts (the TypeScript SDK checks them at start). */
async function setSecrets(emulator: Emulator): Promise<void> {
  const res = await fetch(`${emulator.url}/_emulate/platform/connections/${encodeURIComponent(WEATHER)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ display_name: 'Weather', parent_folder_rid: 'ri.compass.main.folder.x', secrets: { apiKey: API_KEY } }),
  });
  expect(res.status).toBe(200);
}

async function journalText(url: string): Promise<string> {
  return JSON.stringify(await (await fetch(`${url}/_emulate/platform/journal`)).json());
}

const noSecretIn = (text: string) => {
  expect(text).not.toContain(API_KEY);
  expect(text).not.toContain(CLIENT_SECRET);
};

describe('a TypeScript module reads its source through the SDK', () => {
  const APP = { rid: 'ri.foundry.main.deployed-app.envts', runtime: 'envts-runtime', namespace: 'envts' };
  const Q = (name: string) => `com.envts.computemodules.${name}`;
  let live: LiveFunctions;
  let stopped: CliResult | undefined;
  beforeAll(async () => {
    live = await startFunctions({
      seed: environmentSeed(APP),
      runtime: APP.runtime,
      command: [process.execPath, 'test/fixtures/compute-module/environment.mjs'],
      expectSchemas: 2,
      beforeModule: setSecrets,
    });
  }, 120_000);
  afterAll(async () => {
    if (!stopped) await live?.stop();
  });
  const platform = async () => {
    const token = await live.token();
    return createPlatformClient(live.url, async () => token);
  };

  it('getCredential answers the connection secret; getServiceApi the stream proxy and API gateway', async () => {
    const answer = await Queries.execute(await platform(), 'acme', Q('weather'), { parameters: { name: 'apiKey' } });
    expect(answer).toEqual({
      value: { value: API_KEY, missing: true, streamProxy: `${live.url}/stream-proxy/api`, apiGateway: `${live.url}/api` },
    });
  });

  it('the files are 0600, the client variables are set, and all is gone when run-module ends; no secret in its output or the journal', async () => {
    const { value } = (await Queries.execute(await platform(), 'acme', Q('files'), { parameters: {} })) as {
      value: { credentials: string; credentialsMode: number; configurations: string; configurationsMode: number; hasClient: boolean };
    };
    expect(value).toMatchObject({ credentialsMode: 0o600, configurationsMode: 0o600, hasClient: true });
    expect(existsSync(value.credentials)).toBe(true);
    noSecretIn(await journalText(live.url));
    stopped = await live.stop();
    expect(existsSync(value.credentials)).toBe(false);
    expect(existsSync(value.configurations)).toBe(false);
    noSecretIn(stopped.stdout + stopped.stderr);
    expect(stopped.stderr).toContain('application permissions of client geo-module');
    expect(stopped.stderr).toContain('sources weather');
  });
});

describe('the control route', () => {
  const APP = { rid: 'ri.foundry.main.deployed-app.envctl', runtime: 'envctl-runtime', namespace: 'envctl' };
  it('answers {} for an app with no environment, and the seed check names a missing client or connection', async () => {
    const { startEmulator } = await import('../../src/index.js');
    const { testStoreSpec } = await import('../helpers/store.js');
    const emulator = await startEmulator({ store: testStoreSpec(), seed: seedFor(APP) });
    try {
      const res = await fetch(`${emulator.url}/_emulate/platform/module-environment`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ runtimeId: APP.runtime }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
    } finally {
      await emulator.close();
    }
    const bad = seedFor({ ...APP, extra: `        client_id: nobody\n        sources: [{ api_name: weather, connection: ri.magritte..source.none }]\n` });
    const refused = await startEmulator({ store: testStoreSpec(), seed: bad }).then(
      async (e) => {
        await e.close();
        return '';
      },
      (err: Error) => err.message,
    );
    expect(refused).toContain('client_id: no seeded OAuth client has the id "nobody"');
    expect(refused).toContain('sources[0].connection: no seeded connection has the rid "ri.magritte..source.none"');
  });
});

// Skipped only without the Python virtualenv (COMMON setup: `ln -s /work/main/.venv .venv`; CI makes it).
describe.skipIf(!hasPython())('a Python module gets a token with its application permissions', () => {
  const APP = { rid: 'ri.foundry.main.deployed-app.envpy', runtime: 'envpy-runtime', namespace: 'envpy' };
  const Q = (name: string) => `com.envpy.computemodules.${name}`;
  let live: LiveFunctions;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'fn-env-tls-'));
    live = await startFunctions({
      seed: environmentSeed(APP),
      runtime: APP.runtime,
      command: [PYTHON, 'test/clients/python/modules/environment_app.py'],
      expectSchemas: 1,
      emulator: { httpsPort: 0, dataDir },
      beforeModule: async (emulator) => {
        await setSecrets(emulator);
        return { EMULATOR_TLS_HOST: new URL(emulator.https!.url).host };
      },
    });
  }, 120_000);
  afterAll(async () => {
    await live?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('oauth() gets a client-credentials token that the API accepts; the context holds the source', async () => {
    const token = await live.token();
    const c = createPlatformClient(live.url, async () => token);
    const answer = await Queries.execute(c, 'acme', Q('whoami'), { parameters: { scope: 'api:ontologies-read' } });
    expect(answer).toEqual({
      value: { client_id: 'geo-module', got_token: true, api_status: 200, weather_key: API_KEY, weather_url: 'https://api.weather.example:443' },
    });
    // The token request went through the alias, and the journal shows no secret.
    const journal = await journalText(live.url);
    expect(journal).toContain('/multipass/api/oauth2/token');
    noSecretIn(journal);
  });
});
