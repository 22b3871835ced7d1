// The in-pod runtime listener (docs/contracts.md §10) on real sockets: HTTPS with the CA the session hands out, the
// runtime routes as the in-pod runtime answers them, and one store and job service with the public port.
// The real Python runtime SDK goes through it in test/clients/python/test_compute_module.py.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request as httpsRequest } from 'node:https';
import { connect, createServer, type AddressInfo } from 'node:net';
import { startEmulator, type Emulator } from '../../src/index.js';

const RUNTIMES = '/_emulate/platform/compute-modules/runtimes';
const MUX = '/analytics-backend-multiplexer/api/module-group-multiplexer';

interface Session {
  moduleAuthToken: string;
  getJobUri: string;
  podRuntime: { host: string; port: number; restartNotificationUri: string; caCertificate: string };
}

let emulator: Emulator;
let adminToken: string;
beforeAll(async () => {
  emulator = await startEmulator({ seed: { platform: { compute_modules: { poll_timeout_ms: 200 } } } });
  const res = await fetch(`${emulator.url}/_emulate/platform/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin' }),
  });
  adminToken = ((await res.json()) as { access_token: string }).access_token;
});
afterAll(() => emulator.close());

async function openSession(runtimeId: string, deployedAppRid: string): Promise<Session> {
  const res = await fetch(`${emulator.url}${RUNTIMES}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ runtimeId, deployedAppRid }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Session;
}

interface PodAnswer {
  status: number;
  body: Buffer;
  headers: Record<string, string | string[] | undefined>;
}

/** One request to the pod listener, trusting only `ca` (none: the system's roots, which do not know ours). */
function pod(
  session: Session,
  method: string,
  path: string,
  options: { token?: string; body?: Buffer | string; contentType?: string; ca?: string | null; agent?: Agent } = {},
): Promise<PodAnswer> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers['module-auth-token'] = options.token;
  if (options.contentType) headers['content-type'] = options.contentType;
  if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: session.podRuntime.host,
        port: session.podRuntime.port,
        method,
        path,
        headers,
        agent: options.agent ?? false,
        ...(options.ca === null ? {} : { ca: options.ca ?? session.podRuntime.caCertificate }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks), headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const pathOf = (uri: string) => new URL(uri).pathname;
const submit = async (deployedAppRid: string, queryType: string, query: unknown) => {
  const res = await fetch(`${emulator.url}${MUX}/deployed-apps/jobs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ deployedAppRid, queryType, query }),
  });
  return ((await res.json()) as { id: string }).id;
};
const inspect = async (runtimeId: string, jobId: string) =>
  ((await (await fetch(`${emulator.url}${RUNTIMES}/${runtimeId}/jobs/${jobId}`)).json()) as { job: { state: string; handOuts: number } }).job;

describe('pod listener', () => {
  it('is HTTPS on loopback with a certificate that only the handed-out CA verifies', async () => {
    const session = await openSession('rt-pod-tls', 'ri.app.pod-tls');
    const listener = await emulator.server.podListener(); // the one the session started, not another
    expect(session.podRuntime.host).toBe('127.0.0.1');
    expect(listener.url).toBe(`https://127.0.0.1:${session.podRuntime.port}`);
    expect(session.podRuntime.caCertificate).toBe(listener.caCertificate);
    expect(session.podRuntime.caCertificate).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----/);
    expect(session.podRuntime.caCertificate).not.toMatch(/PRIVATE KEY/);
    expect(session.podRuntime.restartNotificationUri).toBe(`${listener.url}${RUNTIMES}/rt-pod-tls/restart`);
    const trusted = await pod(session, 'GET', pathOf(session.getJobUri), { token: session.moduleAuthToken });
    expect(trusted.status).toBe(204);
    await expect(pod(session, 'GET', pathOf(session.getJobUri), { token: session.moduleAuthToken, ca: null })).rejects.toThrow(
      /self.signed|unable to (get|verify)/i,
    );
  });

  it('starts with the app on a configured port, so that a module given only that port finds it', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const fixed = await startEmulator({
      seed: { platform: { compute_modules: { pod_listener_port: port, runtimes: [{ runtime_id: 'rt-fixed', module_auth_token: 'fixed-token-0123456789' }] } } },
    });
    try {
      // Listening before anything asked for it.
      await new Promise<void>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(resolve)).on('error', reject);
      });
      const session = {
        podRuntime: { host: '127.0.0.1', port, restartNotificationUri: '', caCertificate: (await fixed.server.podListener()).caCertificate },
        moduleAuthToken: 'fixed-token-0123456789',
        getJobUri: '',
      };
      const restart = await pod(session, 'POST', `${RUNTIMES}/rt-fixed/restart`, { token: session.moduleAuthToken });
      expect({ status: restart.status, body: restart.body.toString() }).toEqual({ status: 200, body: '[]' });
    } finally {
      await fixed.close();
    }
  });

  it('fails the start clearly when the configured port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      await expect(startEmulator({ seed: { platform: { compute_modules: { pod_listener_port: port } } } })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('hands a job submitted on the public port to a poll on the pod port; the result is 204 and reaches the caller', async () => {
    const session = await openSession('rt-pod-jobs', 'ri.app.pod-jobs');
    const execute = fetch(`${emulator.url}${MUX}/compute-modules/jobs/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ deployedAppRid: 'ri.app.pod-jobs', queryType: 'add', query: { a: 1, b: 2 } }),
    });
    let polled: PodAnswer;
    do polled = await pod(session, 'GET', pathOf(session.getJobUri), { token: session.moduleAuthToken });
    while (polled.status === 204);
    expect(polled.status).toBe(200);
    const job = JSON.parse(polled.body.toString()) as { computeModuleJobV1: { jobId: string; queryType: string; query: unknown } };
    expect(job.computeModuleJobV1).toMatchObject({ queryType: 'add', query: { a: 1, b: 2 } });
    const posted = await pod(session, 'POST', `${RUNTIMES}/rt-pod-jobs/results/${job.computeModuleJobV1.jobId}`, {
      token: session.moduleAuthToken,
      body: '3',
      contentType: 'application/octet-stream',
    });
    expect({ status: posted.status, body: posted.body.length }).toEqual({ status: 204, body: 0 });
    const answered = await execute;
    expect(answered.status).toBe(200);
    expect(await answered.text()).toBe('3');
    // A repeated post of a finished job is discarded, still 204: the SDK would retry anything else.
    const again = await pod(session, 'POST', `${RUNTIMES}/rt-pod-jobs/results/${job.computeModuleJobV1.jobId}`, { token: session.moduleAuthToken, body: '4' });
    expect(again.status).toBe(204);
  });

  it('stores schemas with 204', async () => {
    const session = await openSession('rt-pod-schemas', 'ri.app.pod-schemas');
    const schemas = [{ functionName: 'add', inputs: [], output: { type: 'single', single: { dataType: { type: 'integer', integer: {} } } } }];
    const res = await pod(session, 'POST', `${RUNTIMES}/rt-pod-schemas/schemas`, {
      token: session.moduleAuthToken,
      body: JSON.stringify(schemas),
      contentType: 'application/json',
    });
    expect(res.status).toBe(204);
    const stored = await fetch(`${emulator.url}${MUX}/schemas?rid=ri.app.pod-schemas`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(((await stored.json()) as Array<{ functionName: string }>).map((s) => s.functionName)).toEqual(['add']);
    const bad = await pod(session, 'POST', `${RUNTIMES}/rt-pod-schemas/schemas`, {
      token: session.moduleAuthToken,
      body: '{"not":"a list"}',
      contentType: 'application/json',
    });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body.toString()).error).toBe('invalid_request');
  });

  it('answers the restart notification with the ids of the handed-out jobs, which go back to the queue', async () => {
    const session = await openSession('rt-pod-restart', 'ri.app.pod-restart');
    const restart = pathOf(session.podRuntime.restartNotificationUri);
    const none = await pod(session, 'POST', restart, { token: session.moduleAuthToken });
    expect({ status: none.status, body: JSON.parse(none.body.toString()) }).toEqual({ status: 200, body: [] });

    const jobId = await submit('ri.app.pod-restart', 'slow', {});
    const queuedOnly = await submit('ri.app.pod-restart', 'later', {});
    const polled = await pod(session, 'GET', pathOf(session.getJobUri), { token: session.moduleAuthToken });
    expect(JSON.parse(polled.body.toString()).computeModuleJobV1.jobId).toBe(jobId);
    expect((await inspect('rt-pod-restart', jobId)).state).toBe('inProgress');

    const res = await pod(session, 'POST', restart, { token: session.moduleAuthToken });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.body.toString())).toEqual([jobId]); // not the job that was never handed out
    expect(await inspect('rt-pod-restart', jobId)).toMatchObject({ state: 'queued', handOuts: 1 });
    const again = await pod(session, 'GET', pathOf(session.getJobUri), { token: session.moduleAuthToken });
    expect(JSON.parse(again.body.toString()).computeModuleJobV1.jobId).toBe(jobId); // at its old place
    expect((await inspect('rt-pod-restart', jobId)).handOuts).toBe(2);
    expect((await inspect('rt-pod-restart', queuedOnly)).state).toBe('queued');
  });

  it('requeues on a restart notification only the jobs of the replica that restarted, not those another replica holds', async () => {
    const session = await openSession('rt-pod-replicas', 'ri.app.pod-replicas');
    const restart = pathOf(session.podRuntime.restartNotificationUri);
    const getJob = pathOf(session.getJobUri);
    const first = await submit('ri.app.pod-replicas', 'one', {});
    const second = await submit('ri.app.pod-replicas', 'two', {});
    // Replica A takes the first job and then restarts: its connection is gone.
    const a = await pod(session, 'GET', getJob, { token: session.moduleAuthToken });
    expect(JSON.parse(a.body.toString()).computeModuleJobV1.jobId).toBe(first);
    // Replica B takes the second on a connection it keeps, as a running module's session does.
    const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: session.podRuntime.caCertificate });
    try {
      const b = await pod(session, 'GET', getJob, { token: session.moduleAuthToken, agent });
      expect(JSON.parse(b.body.toString()).computeModuleJobV1.jobId).toBe(second);
      // The restarted replica A says so, on a new connection.
      const res = await pod(session, 'POST', restart, { token: session.moduleAuthToken });
      expect({ status: res.status, body: JSON.parse(res.body.toString()) }).toEqual({ status: 200, body: [first] });
      expect(await inspect('rt-pod-replicas', first)).toMatchObject({ state: 'queued', handOuts: 1 });
      expect(await inspect('rt-pod-replicas', second)).toMatchObject({ state: 'inProgress', handOuts: 1 }); // B still works on it
    } finally {
      agent.destroy();
    }
  });

  it('refuses a wrong token and an unknown runtime in the OAuth envelope, and HEAD hands nothing out', async () => {
    const session = await openSession('rt-pod-auth', 'ri.app.pod-auth');
    const wrong = await pod(session, 'GET', pathOf(session.getJobUri), { token: 'x'.repeat(32) });
    expect({ status: wrong.status, error: JSON.parse(wrong.body.toString()).error }).toEqual({ status: 401, error: 'invalid_module_auth_token' });
    const missing = await pod(session, 'POST', pathOf(session.podRuntime.restartNotificationUri));
    expect(missing.status).toBe(401);
    const unknown = await pod(session, 'GET', `${RUNTIMES}/no-such-runtime/job`, { token: session.moduleAuthToken });
    expect({ status: unknown.status, error: JSON.parse(unknown.body.toString()).error }).toEqual({ status: 404, error: 'not_found' });

    const jobId = await submit('ri.app.pod-auth', 'q', {});
    const head = await pod(session, 'HEAD', pathOf(session.getJobUri), { token: session.moduleAuthToken });
    expect(head.status).toBe(404);
    expect((await inspect('rt-pod-auth', jobId)).state).toBe('queued');
    const other = await pod(session, 'GET', '/api/v2/ontologies', { token: session.moduleAuthToken });
    expect(other.status).toBe(404); // only the runtime routes live here
  });
});
