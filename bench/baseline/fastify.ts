// The framework floor: the same essential work (bench/baseline/work.ts) on bare Fastify with its default
// logger at info, as the emulator runs. Shown beside the baseline, without a target, so a reader can tell
// what the framework costs from what the emulator's own layers cost.
import Fastify, { type FastifyReply } from 'fastify';
import { parseArgs } from 'node:util';
import { getCurrent, mintRoute, tokenEndpoint, type Answer } from './work.js';

const app = Fastify({ logger: { level: 'info' }, disableRequestLogging: true });
app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));
app.removeContentTypeParser('application/json');
app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

const send = (reply: FastifyReply, answer: Answer) =>
  reply
    .code(answer.status)
    .headers(answer.headers ?? {})
    .send(answer.body);

app.get('/_emulate/health', async () => ({ status: 'ok' }));
app.get('/api/v2/admin/users/getCurrent', (request, reply) => send(reply, getCurrent(request.headers.authorization)));
app.post('/idp/api/oauth2/token', (request, reply) =>
  send(reply, tokenEndpoint(request.headers['content-type'], request.headers.authorization, String(request.body ?? ''))),
);
app.post('/_emulate/platform/tokens', (request, reply) => send(reply, mintRoute(String(request.body ?? ''))));

const { values } = parseArgs({ options: { port: { type: 'string' } } });
await app.listen({ port: Number(values.port ?? 0), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
