// TLS beside plain http (docs/tls.md): the same routes over both listeners, a certificate for the loopback names
// signed by a CA kept in the data directory, the same CA after a restart.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/index.js';

const SEED = { platform: { oauth_clients: [{ client_id: 'svc', client_secret: 'svc-secret' }] } };

function get(url: string, ca: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the TLS listener beside plain http', () => {
  const dirs: string[] = [];
  const running: Emulator[] = [];
  afterEach(async () => {
    for (const e of running.splice(0)) await e.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'emulator-tls-'));
    dirs.push(dir);
    return join(dir, 'data');
  };

  it('serves the same routes over https, trusted through the kept CA, and keeps that CA across restarts', async () => {
    const dir = dataDir();
    const first = await startEmulator({ seed: SEED, httpsPort: 0, dataDir: dir });
    running.push(first);
    expect(first.https?.url).toMatch(/^https:\/\/localhost:\d+$/);
    const caFile = first.https!.caFile;
    expect(caFile).toBe(join(dir, 'ca.pem'));
    const ca = readFileSync(caFile, 'utf8');
    expect(ca).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(statSync(join(dir, 'ca-key.pem')).mode & 0o077).toBe(0); // the CA's key: the owner's alone

    const token = await first.mintToken('admin', ['api:admin-read']);
    const me = await get(`${first.https!.url}/api/v2/admin/users/getCurrent`, ca, { authorization: `Bearer ${token}` });
    expect(me.status).toBe(200);
    expect(JSON.parse(me.body).username).toBe('admin');
    // Same for 127.0.0.1: the certificate names it too; plain http still answers.
    const ip = await get(first.https!.url.replace('localhost', '127.0.0.1') + '/api/v2/ontologies', ca, { authorization: `Bearer ${token}` });
    expect(ip.status).toBe(403);
    expect((await fetch(`${first.url}/api/v2/admin/users/getCurrent`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    // A client that does not trust the CA is refused by TLS itself.
    await expect(get(`${first.https!.url}/api/v2/ontologies`, '')).rejects.toThrow();
    await first.close();
    running.pop();

    const second = await startEmulator({ seed: SEED, httpsPort: 0, dataDir: dir });
    running.push(second);
    expect(readFileSync(second.https!.caFile, 'utf8')).toBe(ca);
    const again = await get(`${second.https!.url}/api/v2/ontologies`, ca, {
      authorization: `Bearer ${await second.mintToken('admin', ['api:ontologies-read'])}`,
    });
    expect(again.status).toBe(200);
  });

  it('has no TLS listener unless asked', async () => {
    const e = await startEmulator({ seed: SEED });
    running.push(e);
    expect(e.https).toBeUndefined();
  });
});
