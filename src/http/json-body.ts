// JSON bodies whose bytes arrived in full but do not parse (malformed or empty) are answered on a connection
// that stays open. Fastify closes the connection whenever a body parser fails, which is right when the body
// was not read to its end (too large) but makes every client that sent bad JSON reconnect: under load that
// doubled the server's CPU per bad request. So the parser hands the failure on as a value, and a hook raises
// it before validation, where the error renderer maps it exactly as before.
import type { FastifyError, FastifyInstance } from 'fastify';

class UnparsedBody {
  constructor(readonly error: FastifyError) {}
}

export function installJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parse(request, body as string, (err, value) => (err ? done(null, new UnparsedBody(err as FastifyError)) : done(null, value)));
  });
  app.addHook('preValidation', (request, _reply, done) => done(request.body instanceof UnparsedBody ? request.body.error : undefined));
}
