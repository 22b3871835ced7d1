// Moving the service's clock forward, so that a test suite can see tokens and codes expire against a running
// emulator without waiting an hour. Forward only: credentials expire in the order they were issued, which the
// sweep relies on, and a clock that ran backwards would also revive expired credentials.
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Store } from '../../../store/store.js';
import { isAdjustable, type Clock } from '../../../clock.js';
import { conflict } from '../../../errors.js';
import { CONTROL_ROUTE } from '../../../http/route-config.js';

/** Ten years: far beyond any lifetime the service hands out, small enough that dates stay valid. */
const MAX_ADVANCE_MS = 10 * 365 * 24 * 3600 * 1000;

export function clockRoutes(parent: FastifyInstance, deps: { store: Store; clock: Clock }): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const now = () => new Date(deps.clock.now()).toISOString();

  app.get('/_emulate/platform/clock', { config: CONTROL_ROUTE }, async () => ({ now: now() }));

  app.post(
    '/_emulate/platform/clock',
    {
      config: CONTROL_ROUTE,
      schema: { body: Type.Object({ advanceMs: Type.Integer({ minimum: 0, maximum: MAX_ADVANCE_MS }) }, { additionalProperties: false }) },
    },
    async (request) => {
      const { clock } = deps;
      if (!isAdjustable(clock)) throw conflict('ClockNotAdjustable', {});
      clock.advance(request.body.advanceMs);
      // Sweep at once, so that what the move expired is gone (and its memory freed) when the answer arrives.
      const swept = await app.clockMoved();
      return { now: now(), swept };
    },
  );
}
