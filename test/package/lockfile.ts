// A package-lock for the scratch app, cut from the repository's own lock: the packages it needs, at the
// versions this repository already installed. With it, `npm ci --offline` resolves nothing over the network
// (npm's cache holds the tarballs, by integrity, from this repository's install, but not the registry's
// version lists that a lock-less install would ask for).

interface LockEntry {
  version?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  [key: string]: unknown;
}

/** Where Node would find `name` from the package installed at `from` (nested first, then each parent). */
function locate(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}

/** The entries reachable from `roots` (top-level package names), flags reset for a production install. */
export function closure(lock: { packages: Record<string, LockEntry> }, roots: string[]): Record<string, LockEntry> {
  const { packages } = lock;
  const out: Record<string, LockEntry> = {};
  const queue: Array<[string, boolean]> = [];
  const visit = (path: string | undefined, optional: boolean) => {
    if (path && !out[path]) queue.push([path, optional]);
  };
  for (const root of roots) visit(locate(packages, '', root), false);
  while (queue.length > 0) {
    const [path, optional] = queue.shift()!;
    if (out[path]) continue;
    const { dev: _dev, devOptional: _devOptional, optional: wasOptional, ...entry } = packages[path]!;
    out[path] = { ...entry, ...(optional || wasOptional ? { optional: true } : {}) };
    for (const name of Object.keys(entry.dependencies ?? {})) visit(locate(packages, path, name), optional);
    for (const name of Object.keys(entry.optionalDependencies ?? {})) visit(locate(packages, path, name), true);
    for (const [name] of Object.entries(entry.peerDependencies ?? {})) {
      if (!entry.peerDependenciesMeta?.[name]?.optional) visit(locate(packages, path, name), optional);
    }
  }
  return out;
}
