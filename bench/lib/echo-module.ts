// Opens a runtime session on an emulator and starts the bench's echo module (a real @palantir/compute-module
// module) against it, as run-module would: the URIs and a file holding the module auth token.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUNTIME_ID } from './fixtures.js';
import { postJson } from './http.js';
import { spawnNode } from './processes.js';

export const RUNTIMES_PATH = '/_emulate/platform/compute-modules/runtimes';

interface RuntimeSession {
  moduleAuthToken: string;
  getJobUri: string;
  postResultUri: string;
  postSchemaUri: string;
}

export type EchoModule = ReturnType<typeof spawnNode>;

export async function startEchoModule(baseUrl: string): Promise<EchoModule> {
  const session = await postJson(`${baseUrl}${RUNTIMES_PATH}`, { runtimeId: RUNTIME_ID });
  if (session.status !== 200) throw new Error(`runtime session: ${session.status} ${session.text()}`);
  const runtime = session.json<RuntimeSession>();
  const tokenFile = join(mkdtempSync(join(tmpdir(), 'bench-module-')), 'module-auth-token');
  writeFileSync(tokenFile, runtime.moduleAuthToken);
  return spawnNode(['--import', 'tsx', 'bench/module/echo-module.ts'], {
    GET_JOB_URI: runtime.getJobUri,
    POST_RESULT_URI: runtime.postResultUri,
    POST_SCHEMA_URI: runtime.postSchemaUri,
    MODULE_AUTH_TOKEN: tokenFile,
  });
}
