// Route validators compile on first use (src/http/deferred-validation.ts): nothing is compiled at ready, the first
// request compiles and validates as Fastify's own compiler would, and compileAll() reaches every route.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { deferredValidation } from '../../src/http/deferred-validation.js';
import { buildTestApp } from '../helpers/app.js';

function appWith(schema: unknown) {
  const validation = deferredValidation();
  const app = Fastify({ schemaController: { compilersFactory: { buildValidator: validation.buildValidator } } });
  app.post('/things', { schema: { body: schema } }, async (request) => request.body);
  return { app, validation };
}

describe('deferred route validation', () => {
  it('compiles nothing at ready: a broken schema surfaces only when compiled', async () => {
    const broken = { type: 'no-such-type' };
    const eager = Fastify();
    eager.post('/things', { schema: { body: broken } }, async () => 'never');
    await expect(eager.ready()).rejects.toThrow(/schema is invalid/);
    const { app, validation } = appWith(broken);
    await app.ready();
    expect(() => validation.compileAll()).toThrow(/schema is invalid/);
    await app.close();
  });

  it('validates on the first request with the errors Fastify reports for its own compiler', async () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false };
    const { app } = appWith(schema);
    const reference = Fastify();
    reference.post('/things', { schema: { body: schema } }, async (request) => request.body);
    for (const body of [{ n: 'x' }, { m: 1 }, { n: 1 }]) {
      const ours = await app.inject({ method: 'POST', url: '/things', payload: body });
      const theirs = await reference.inject({ method: 'POST', url: '/things', payload: body });
      expect(ours.statusCode).toBe(theirs.statusCode);
      expect(ours.json()).toEqual(theirs.json());
    }
    expect((await app.inject({ method: 'POST', url: '/things', payload: { n: 'y' } })).statusCode).toBe(400); // errors reset per call
    expect((await app.inject({ method: 'POST', url: '/things', payload: { n: 2 } })).json()).toEqual({ n: 2 });
    await Promise.all([app.close(), reference.close()]);
  });

  it('every schema of the service compiles', async () => {
    const { app } = await buildTestApp();
    expect(() => app.compileValidators()).not.toThrow();
    await app.close();
  });
});
