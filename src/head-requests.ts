// HEAD requests are answered by the GET route of their path, with no route of their own.
// Why: the framework's default registers a HEAD twin of every GET route (about 115 of them), which was about a
// seventh of the CLI's start-up (docs/performance.md, "Ninth session"). Here a HEAD request is routed as a GET
// before routing; Node built its response for a HEAD request (the response object is made before routing),
// so it sends the GET's status and headers, Content-Length included, and never a body, as the twins did. The
// method the client sent stays readable for the journal, the log, injected faults and error messages.
import type { IncomingMessage } from 'node:http';

const SENT_AS_HEAD = Symbol('sent-as-head');
type Marked = IncomingMessage & { [SENT_AS_HEAD]?: true };

/** Called before routing (the app's `rewriteUrl`): a HEAD request is routed as a GET. */
export function routeHeadAsGet(req: IncomingMessage): void {
  if (req.method !== 'HEAD') return;
  req.method = 'GET';
  (req as Marked)[SENT_AS_HEAD] = true;
}

/** The method the client sent (HEAD for a request routed as a GET). */
export function sentMethod(req: IncomingMessage): string {
  return (req as Marked)[SENT_AS_HEAD] === true ? 'HEAD' : (req.method ?? 'GET');
}

type Rewrite = (req: IncomingMessage) => string;

/** The app's `rewriteUrl`: HEAD routed as GET, then the configured path aliases, if any. */
export function headAndAliasRewriter(aliases: Rewrite | undefined): Rewrite {
  return (req) => {
    routeHeadAsGet(req);
    return aliases === undefined ? (req.url ?? '/') : aliases(req);
  };
}
