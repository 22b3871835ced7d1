// The Fastify options of every listener the service runs, the public port (src/app.ts) and the in-pod runtime
// listener (src/services/compute-modules/pod-listener/): body limit, the HTTP layer's refusals in the family's
// envelope (edge-refusals.ts), connection limits (server-limits.ts) and strict validation. One list, so that a
// change to one listener's HTTP layer is a change to both.
import type { Settings } from '../settings.js';
import { MAX_PARAM_LENGTH, answerClientError, answerFrameworkError } from './edge-refusals.js';
import { serverOptions } from './server-limits.js';
import { schemaErrorFormatter } from './body-parsers.js';

export function sharedServerOptions(settings: Readonly<Settings>) {
  return {
    bodyLimit: settings.bodyLimitBytes,
    // Our own 503 while closing, in the family's envelope (installErrorRendering, src/http/render-error.ts).
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // The HTTP layer's own refusals in the family's envelope, and connection limits (src/http/server-limits.ts).
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    ...serverOptions(settings.limits),
    // Strict bodies: no silent coercion ("5" for 5) or dropping of unknown keys; each schema says what it allows.
    // validateSchema off: our schemas come from TypeBox, and compiling ajv's meta-schema cost ~6% of start-up.
    schemaErrorFormatter,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true, validateSchema: false } },
  };
}
