// The fuzzers' path templates from the app's own route table, so that every route a service adds is fuzzed
// without an edit here. A parameter (`:id`) or wildcard becomes `*`, which the generator fills with a random
// segment. Routes that hold a connection open by design (event streams, subscriptions) are left out: a fuzzed
// GET of them would wait for events, not answer.
import type { FastifyInstance } from 'fastify';

const HOLDS_OPEN = [/\/events$/, /Subscriptions\b/];

/** Full paths from `printRoutes({commonPrefix: false})`: one node a line, its depth in its indentation. */
export function routeTemplates(app: FastifyInstance): string[] {
  const stack: string[] = [];
  const out = new Set<string>();
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([^)]*)\))?$/u.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    if (match[3] === undefined) continue; // a shared prefix, not a route
    const full = stack.join('').replace(/^\/*/, '/');
    const template = full.replace(/:[^/]+/g, '*').replace(/\*+/g, '*');
    if (!HOLDS_OPEN.some((pattern) => pattern.test(template))) out.add(template);
  }
  return [...out];
}
