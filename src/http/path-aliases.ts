// Path aliases (docs/contracts.md §11): config `path_aliases` maps a path prefix to one of ours, for client libraries
// that hard-code another path, e.g. the Python platform SDK's OAuth base `{host}/multipass/api` (its
// ConfidentialClientAuth posts to /multipass/api/oauth2/token): `{"/multipass/api/": "/idp/api/"}`.
// An aliased request is served exactly as the target path: the URL is rewritten before routing, so routes,
// auth, error envelopes and logs all see the target; Fastify keeps what came in as `request.originalUrl`.
import type { RawRequestDefaultExpression } from 'fastify';
import { SeedError } from '../seed/load.js';

const SEGMENTS = /^\/([^/?#\s]+\/)+$/;

/**
 * What is wrong with the configured aliases, one sentence each; empty when nothing is. `OUR_PREFIXES`: the
 * prefixes the services serve (their path policy's roots); an alias must lead into one and may not cover any.
 */
export function pathAliasProblems(aliases: Readonly<Record<string, string>>, OUR_PREFIXES: readonly string[]): string[] {
  const problems: string[] = [];
  for (const [prefix, target] of Object.entries(aliases)) {
    const at = `path_aliases.${prefix}`;
    if (!SEGMENTS.test(prefix)) problems.push(`${at}: the prefix must start and end with "/" (like "/multipass/api/")`);
    else if (OUR_PREFIXES.some((ours) => ours.startsWith(prefix) || prefix.startsWith(ours))) {
      problems.push(`${at}: the prefix would hide routes of the service itself (${OUR_PREFIXES.join(', ')})`);
    }
    if (!SEGMENTS.test(target)) problems.push(`${at}: the target "${target}" must start and end with "/" (like "/idp/api/")`);
    else if (!OUR_PREFIXES.some((ours) => target.startsWith(ours))) {
      problems.push(`${at}: the target "${target}" is not under one of the service's prefixes (${OUR_PREFIXES.join(', ')})`);
    }
  }
  return problems;
}

type Rewrite = (request: RawRequestDefaultExpression) => string;

/**
 * The `rewriteUrl` of the app, or undefined when no alias is configured (then the framework skips the step).
 * Throws a SeedError (exit 2 from the CLI) for an invalid configuration. The longest matching prefix wins.
 */
export function pathAliasRewriter(aliases: Readonly<Record<string, string>>, ourPrefixes: readonly string[]): Rewrite | undefined {
  const problems = pathAliasProblems(aliases, ourPrefixes);
  if (problems.length > 0) throw new SeedError('(path_aliases)', problems);
  const entries = Object.entries(aliases).sort(([a], [b]) => b.length - a.length);
  if (entries.length === 0) return undefined;
  return (request) => {
    const url = request.url ?? '/';
    for (const [prefix, target] of entries) {
      if (url.startsWith(prefix)) return target + url.slice(prefix.length);
    }
    return url;
  };
}
