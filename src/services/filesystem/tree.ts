// Walking the tree (docs/directory.md, "The tree"): a node's path, its space and project, its trash status and
// inherited markings come from its ancestors. Walks are bounded (MAX_DEPTH, and each node is visited once), so
// a broken parent chain can never hang a request.
import type { NodeRecord, TreeRepo } from './store/records.js';

export const MAX_DEPTH = 256;

export type TrashStatus = 'DIRECTLY_TRASHED' | 'ANCESTOR_TRASHED' | 'NOT_TRASHED';

export interface Placed {
  node: NodeRecord;
  /** From the space down to the node's parent. */
  ancestors: NodeRecord[];
}

/** The node with its ancestors, nearest last. */
export async function place(repo: TreeRepo, node: NodeRecord): Promise<Placed> {
  const ancestors: NodeRecord[] = [];
  let parentRid = node.parentRid;
  const seen = new Set([node.rid]);
  while (parentRid !== undefined && ancestors.length < MAX_DEPTH && !seen.has(parentRid)) {
    seen.add(parentRid);
    const parent = await repo.get(parentRid);
    if (!parent) break;
    ancestors.unshift(parent);
    parentRid = parent.parentRid;
  }
  return { node, ancestors };
}

export const pathOf = (p: Placed) => '/' + [...p.ancestors, p.node].map((n) => n.displayName).join('/');

export function trashStatusOf(p: Placed): TrashStatus {
  if (p.node.trashed) return 'DIRECTLY_TRASHED';
  return p.ancestors.some((a) => a.trashed) ? 'ANCESTOR_TRASHED' : 'NOT_TRASHED';
}

export const spaceRidOf = (p: Placed) => (p.ancestors[0] ?? p.node).rid;
export const projectOf = (p: Placed) => [...p.ancestors, p.node].find((n) => n.kind === 'PROJECT');

/** Markings applied to the node or any ancestor, each once, sorted. */
export const markingsOf = (p: Placed) => [...new Set([...p.ancestors, p.node].flatMap((n) => n.markings))].sort();

/** The path split into names; undefined when it is not `/a/b/...` with non-empty names. */
export function pathSegments(path: string): string[] | undefined {
  if (!path.startsWith('/')) return undefined;
  const parts = path.slice(1).split('/');
  if (parts.length === 0 || parts.length > MAX_DEPTH || parts.some((p) => p === '')) return undefined;
  return parts;
}

/** The live (not trashed) node at a path; trashed nodes leave the path free (docs/directory.md, "Trash"). */
export async function resolvePath(repo: TreeRepo, segments: readonly string[]): Promise<NodeRecord | undefined> {
  let parent: string | undefined;
  let found: NodeRecord | undefined;
  for (const name of segments) {
    found = (await repo.children(parent)).find((c) => c.displayName === name && !c.trashed);
    if (!found) return undefined;
    parent = found.rid;
  }
  return found;
}

/** Every node below `rid` (not itself), parents before children. */
export async function descendants(repo: TreeRepo, rid: string): Promise<NodeRecord[]> {
  const out: NodeRecord[] = [];
  const seen = new Set([rid]);
  const queue = [rid];
  while (queue.length > 0) {
    for (const child of await repo.children(queue.shift()!)) {
      if (seen.has(child.rid)) continue;
      seen.add(child.rid);
      out.push(child);
      queue.push(child.rid);
    }
  }
  return out;
}

/** A live sibling of this name under the parent, other than `rid`. */
export async function nameTaken(repo: TreeRepo, parentRid: string | undefined, name: string, rid?: string): Promise<boolean> {
  return (await repo.children(parentRid)).some((c) => c.displayName === name && !c.trashed && c.rid !== rid);
}
