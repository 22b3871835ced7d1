// Checks of the tree's seed keys (docs/directory.md, "Seed"): rids unique across spaces, projects, folders and
// resources; every declared parent exists and is of a kind that may hold the node; no folder is its own
// ancestor; names unique within a parent; markings resolve. Each problem names its path.

export interface TreeSeedEntry {
  rid: string;
  name: string;
  /** A space's parent is none; a project's is its space. */
  parent?: string;
  markings?: string[];
}

type Kind = 'spaces' | 'projects' | 'folders' | 'resources';
const arrayOf = (platform: Record<string, unknown>, key: Kind) => (Array.isArray(platform[key]) ? (platform[key] as Array<Record<string, unknown>>) : []);

/** Every declared node of the seed with its kind and path, parents as written. */
export function declaredNodes(platform: Record<string, unknown>): Array<TreeSeedEntry & { kind: Kind; path: string }> {
  const out: Array<TreeSeedEntry & { kind: Kind; path: string }> = [];
  for (const kind of ['spaces', 'projects', 'folders', 'resources'] as const) {
    arrayOf(platform, kind).forEach((e, i) => {
      const parent = kind === 'projects' ? e.space : e.parent;
      out.push({
        kind,
        path: `platform.${kind}[${i}]`,
        rid: String(e.rid),
        name: String(e.name),
        ...(typeof parent === 'string' ? { parent } : {}),
        ...(Array.isArray(e.markings) ? { markings: e.markings as string[] } : {}),
      });
    });
  }
  return out;
}

const MAY_HOLD: Record<Kind, ReadonlyArray<Kind>> = { spaces: [], projects: ['spaces'], folders: ['projects', 'folders'], resources: ['projects', 'folders'] };

/** The problems of one key's entries, judged against the whole tree the seed declares. */
export function treeProblems(kind: Kind, platform: Record<string, unknown>): string[] {
  const all = declaredNodes(platform);
  const byRid = new Map<string, (typeof all)[number]>();
  for (const n of all) if (!byRid.has(n.rid)) byRid.set(n.rid, n);
  const markings = new Set((Array.isArray(platform.markings) ? (platform.markings as Array<{ id?: unknown }>) : []).map((m) => String(m.id)));
  const problems: string[] = [];
  for (const n of all.filter((x) => x.kind === kind)) {
    const first = byRid.get(n.rid)!;
    if (first !== n) problems.push(`${n.path}.rid: "${n.rid}" is declared already at ${first.path}`);
    if (n.parent !== undefined) {
      const parent = byRid.get(n.parent);
      const field = kind === 'projects' ? 'space' : 'parent';
      if (!parent) problems.push(`${n.path}.${field}: no ${MAY_HOLD[kind].join(' or ').replace(/s\b/g, '')} "${n.parent}" is declared`);
      else if (!MAY_HOLD[kind].includes(parent.kind))
        problems.push(`${n.path}.${field}: "${n.parent}" is a ${parent.kind.slice(0, -1)}, which cannot hold a ${kind.slice(0, -1)}`);
    }
    const clash = all.find(
      (o) => o !== n && o.parent === n.parent && o.name === n.name && all.indexOf(o) < all.indexOf(n) && (n.parent !== undefined || o.kind === 'spaces'),
    );
    if (clash) problems.push(`${n.path}.name: "${n.name}" is taken in its parent by ${clash.path}`);
    if (kind === 'folders') {
      // Bounded walk up: a folder met twice is a cycle.
      const seen = new Set<string>([n.rid]);
      let up = n.parent;
      while (up !== undefined && byRid.get(up)?.kind === 'folders') {
        if (seen.has(up)) {
          problems.push(`${n.path}.parent: folder "${n.rid}" is its own ancestor`);
          break;
        }
        seen.add(up);
        up = byRid.get(up)!.parent;
      }
    }
    (n.markings ?? []).forEach((m, i) => {
      if (!markings.has(m)) problems.push(`${n.path}.markings[${i}]: no marking "${m}" in platform.markings`);
    });
  }
  return problems;
}

/** Every `parent_folder_rid` value anywhere in the seed (connections and the like), in the order found. */
export function parentFolderRids(value: unknown, out = new Set<string>(), depth = 0): Set<string> {
  if (depth > 32 || value === null || typeof value !== 'object') return out;
  if (Array.isArray(value)) for (const v of value) parentFolderRids(v, out, depth + 1);
  else
    for (const [k, v] of Object.entries(value)) {
      if (k === 'parent_folder_rid' && typeof v === 'string' && v !== '') out.add(v);
      else parentFolderRids(v, out, depth + 1);
    }
  return out;
}
