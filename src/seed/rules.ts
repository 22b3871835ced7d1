// Checks the schema cannot express, run on the defaulted document: each problem with its path, reported with
// the schema's own. Tolerant of a document the schema refused (it only looks where the shapes are right).
import { isAbsoluteRedirectUri } from '../services/oauth/redirect-uris.js';
import type { ShapeProblem } from './shape.js';

/** Quotes a seed value, cut short: a problem line stays readable whatever was written. */
export const quote = (value: string): string => JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);

export function ruleProblems(platform: unknown): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  const clients = (platform as { oauth_clients?: unknown } | undefined)?.oauth_clients;
  if (!Array.isArray(clients)) return problems;
  clients.forEach((client: { redirect_uris?: unknown } | null, i) => {
    const uris = client?.redirect_uris;
    if (!Array.isArray(uris)) return;
    uris.forEach((uri: unknown, j) => {
      if (typeof uri !== 'string' || isAbsoluteRedirectUri(uri)) return;
      problems.push({
        segments: ['platform', 'oauth_clients', String(i), 'redirect_uris', String(j)],
        message: `must be an absolute http or https URI without a fragment, like http://localhost:8080/callback (is ${quote(uri)}); authorize compares redirect URIs exactly, so no other could ever match`,
      });
    });
  });
  return problems;
}
