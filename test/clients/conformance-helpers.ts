// For the SDK conformance tests: a live server per file, tokens from the control route, and a fetch that
// records every raw exchange so that a test can assert on the exact bytes the SDK received.
import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type Emulator } from '../../src/index.js';
import { testStoreSpec } from '../helpers/store.js';

/** Starts a real server with `seed` before the file's tests and closes it after; returns its base URL. */
export function liveEmulator(seed: string): () => string {
  let emulator: Emulator | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ seed, store: testStoreSpec() });
  });
  afterAll(() => emulator?.close());
  return () => emulator!.url;
}

export async function controlToken(baseUrl: string, username: string, scopes: string[]): Promise<string> {
  const res = await fetch(`${baseUrl}/_emulate/platform/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, scopes }),
  });
  if (res.status !== 200) throw new Error(`mint failed: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export interface Exchange {
  method: string;
  url: string;
  status: number;
  contentType: string | null;
  body: string;
}

export function recordingFetch(): { fetch: typeof fetch; exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const recording: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    exchanges.push({
      method: init?.method ?? 'GET',
      url,
      status: res.status,
      contentType: res.headers.get('content-type'),
      body: await res.clone().text(),
    });
    return res;
  };
  return { fetch: recording, exchanges };
}
