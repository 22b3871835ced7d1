// The route policy the services declare by path (their ServiceModule's `policy`), compiled once per app. The
// HTTP layer reads it for what it decides before or outside a route: which envelope an unknown path or a body
// refused at the edge answers in, which paths answer CORS, and which change topics a write raises. It keeps no
// URL lists of its own.

/** The envelope a path answers in when no route decides it first (docs/contracts.md §1). */
export type ErrorFamily = 'platform' | 'oauth' | 'html';

export interface PathPolicy {
  /** A path prefix, or an exact path when `exact` is set. */
  path: string;
  exact?: boolean;
  /** The envelope errors on these paths answer in; absent: the platform envelope. */
  family?: ErrorFamily;
  /** Whether cross-origin requests from the configured origins are answered (docs/contracts.md §11). */
  cors?: boolean;
  /** The change topics a state-changing request here raises on the event stream; absent: none. */
  topics?: readonly string[];
}

/** Exact rules first, then prefixes longest first: the most specific rule decides. */
export class PathPolicies {
  private readonly exact = new Map<string, PathPolicy>();
  private readonly prefixes: PathPolicy[];

  constructor(rules: readonly PathPolicy[]) {
    for (const rule of rules) if (rule.exact && !this.exact.has(rule.path)) this.exact.set(rule.path, rule);
    this.prefixes = rules.filter((r) => !r.exact).sort((a, b) => b.path.length - a.path.length);
  }

  /** The rule for a decoded path without its query; undefined when none applies. */
  ruleFor(path: string): PathPolicy | undefined {
    const exact = this.exact.get(path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);
    if (exact) return exact;
    for (const rule of this.prefixes) if (path.startsWith(rule.path)) return rule;
    return undefined;
  }

  family(path: string): ErrorFamily {
    // Exact html paths also answer with a trailing slash; a prefix rule's family covers what lies below it.
    const rule = this.ruleFor(path);
    if (rule?.family) return rule.family;
    if (rule?.exact) {
      for (const prefix of this.prefixes) if (path.startsWith(prefix.path) && prefix.family) return prefix.family;
    }
    return 'platform';
  }

  cors(path: string): boolean {
    return this.ruleFor(path)?.cors === true;
  }

  /** The first segments of every path the services declare (`/idp/`, `/api/`): what a path alias may not cover. */
  roots(): string[] {
    const all = [...this.exact.values(), ...this.prefixes].map((r) => `/${r.path.split('/')[1]}/`);
    return [...new Set(all)].sort();
  }

  /** The exact paths that answer CORS (each gets its own preflight route). */
  exactCorsPaths(): string[] {
    return [...this.exact.values()].filter((r) => r.cors).map((r) => r.path);
  }

  /** The change topics of a write to `path`; undefined when no rule names any (an unknown write changes all). */
  topics(path: string): readonly string[] | undefined {
    return this.ruleFor(path)?.topics;
  }
}
