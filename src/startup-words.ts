// Start-up problems said in words, for people: a port in use, an address that cannot be bound, control routes
// that will answer 404. The raw codes (EADDRINUSE, ...) stay on the error for programs that check them.
import { isLoopbackHost, type Settings } from './settings.js';

/** A failed listen, with a message saying which port or host and what to do. `code` keeps the system's code. */
export class ListenError extends Error {
  readonly code: string | undefined;
  constructor(message: string, cause: NodeJS.ErrnoException) {
    super(message, { cause });
    this.name = 'ListenError';
    this.code = cause.code;
  }
}

const OTHER_PORT = 'choose another port with --port N or the PORT environment variable (0 picks a free one)';

/** Words for an error of `listen()`; other errors come back as they are. */
export function listenError(err: unknown, settings: Pick<Settings, 'host' | 'port'>): unknown {
  const e = err as NodeJS.ErrnoException;
  const { host, port } = settings;
  switch (e?.code) {
    case 'EADDRINUSE':
      return new ListenError(`port ${port} on ${host} is already in use (another emulator or program listens there): stop it, or ${OTHER_PORT}`, e);
    case 'EACCES':
    case 'EPERM':
      return new ListenError(`no permission to listen on port ${port} on ${host} (ports below 1024 need privileges): ${OTHER_PORT}`, e);
    case 'EADDRNOTAVAIL':
      return new ListenError(
        `cannot listen on ${host}: it is not an address of this machine; choose another with --host (e.g. 127.0.0.1, or 0.0.0.0 for every interface)`,
        e,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ListenError(`cannot listen on ${host}: the host name does not resolve; give an address with --host (e.g. 127.0.0.1)`, e);
    default:
      return err;
  }
}

/**
 * Off loopback, control routes answer only to the config's control_token; without one they answer 404 to every
 * caller, even on this machine (src/http/auth.ts). Said once at start, since nothing else would say it.
 */
export function controlRouteWarning(settings: Pick<Settings, 'host' | 'controlToken'>): string | undefined {
  if (isLoopbackHost(settings.host) || settings.controlToken) return undefined;
  return (
    `listening on ${settings.host} without a control_token: the control routes under /_emulate/ (all but /_emulate/health) ` +
    'answer 404 to every caller, even from this machine. To use them, set platform.control_token in the config and send it as ' +
    '"Authorization: Bearer <control_token>", or listen on a loopback host (--host 127.0.0.1).'
  );
}
