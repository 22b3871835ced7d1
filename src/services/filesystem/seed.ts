// The tree's seed keys: `spaces`, `projects`, `folders` and `resources` (docs/directory.md, "Seed"). A
// `parent_folder_rid` anywhere in the seed that nothing declares becomes a folder named after the rid's last
// segment, in a project `Default` of a space `Default`, so that older seeds keep working.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { SeedCodec, SeedContext } from '../../seed/codec.js';
import type { Store } from '../../store/store.js';
import { TREE } from './store/part.js';
import { stableUuid } from '../../ids.js';
import type { NodeKind, NodeRecord } from './store/records.js';
import { declaredNodes, parentFolderRids, treeProblems } from './seed-check.js';

export const DEFAULT_SPACE_RID = 'ri.compass.main.folder.default-space';
export const DEFAULT_PROJECT_RID = 'ri.compass.main.folder.default-project';
// The platform's clients check that createdBy is a UUID: seeded nodes name the default admin's id.
const SEEDED_BY = stableUuid('user:admin');

const Rid = Type.String({ minLength: 1 });
const Name = Type.String({ minLength: 1, pattern: '^[^/]+$' });
const Common = { rid: Rid, name: Name, description: Type.Optional(Type.String()) };
const Placed = { trashed: Type.Boolean({ default: false }), markings: Type.Array(Type.String(), { default: [] }) };
const closed = { additionalProperties: false } as const;

const SpaceSeed = Type.Object({ ...Common }, closed);
const ProjectSeed = Type.Object({ ...Common, space: Rid, ...Placed }, closed);
const FolderSeed = Type.Object({ ...Common, parent: Rid, ...Placed }, closed);
const ResourceSeed = Type.Object({ ...Common, parent: Rid, type: Type.String({ default: 'FOUNDRY_DATASET' }), ...Placed }, closed);
type AnyEntry = { rid: string; name: string; description?: string; space?: string; parent?: string; type?: string; trashed?: boolean; markings?: string[] };

function node(kind: NodeKind, e: AnyEntry, parentRid: string | undefined, time: string): NodeRecord {
  return {
    rid: e.rid,
    kind,
    type: kind === 'RESOURCE' ? (e.type ?? 'FOUNDRY_DATASET') : 'COMPASS_FOLDER',
    displayName: e.name,
    ...(e.description !== undefined ? { description: e.description } : {}),
    ...(parentRid !== undefined ? { parentRid } : {}),
    trashed: e.trashed ?? false,
    markings: e.markings ?? [],
    createdBy: SEEDED_BY,
    createdTime: time,
    updatedBy: SEEDED_BY,
    updatedTime: time,
  };
}

/** Folders for parent rids nothing declares, under the default space and project (made when needed). */
async function adoptUndeclaredParents(context: SeedContext): Promise<void> {
  const platform = context.seed as Record<string, unknown>;
  const declared = new Set(declaredNodes(platform).map((n) => n.rid));
  const missing = [...parentFolderRids(platform)].filter((rid) => !declared.has(rid));
  if (missing.length === 0) return;
  const tree = context.store.part(TREE);
  const time = new Date(context.clock.now()).toISOString();
  if (!(await tree.get(DEFAULT_SPACE_RID))) await tree.put(node('SPACE', { rid: DEFAULT_SPACE_RID, name: 'Default' }, undefined, time));
  if (!(await tree.get(DEFAULT_PROJECT_RID))) await tree.put(node('PROJECT', { rid: DEFAULT_PROJECT_RID, name: 'Default' }, DEFAULT_SPACE_RID, time));
  for (const rid of missing) {
    if (await tree.get(rid)) continue;
    await tree.put(node('FOLDER', { rid, name: rid.split('.').pop() || rid }, DEFAULT_PROJECT_RID, time));
  }
}

/** One node of each kind, each under the one before (the generated tests seed them together). */
const EXAMPLES: Record<string, unknown[]> = {
  spaces: [{ rid: 'ri.compass.main.folder.example-space', name: 'Example space' }],
  projects: [
    { rid: 'ri.compass.main.folder.example-project', name: 'Example project', space: 'ri.compass.main.folder.example-space', trashed: false, markings: [] },
  ],
  folders: [{ rid: 'ri.compass.main.folder.example', name: 'Example folder', parent: 'ri.compass.main.folder.example-project', trashed: false, markings: [] }],
  resources: [
    {
      rid: 'ri.foundry.main.dataset.example-resource',
      name: 'Example resource',
      parent: 'ri.compass.main.folder.example',
      type: 'FOUNDRY_DATASET',
      trashed: false,
      markings: [],
    },
  ],
};

function codec<S extends TSchema>(
  key: 'spaces' | 'projects' | 'folders' | 'resources',
  kind: NodeKind,
  entry: S,
  parentOf: (e: AnyEntry) => string | undefined,
): SeedCodec<Array<Static<S>>> {
  return {
    key,
    example: EXAMPLES[key] as Array<Static<S>>,
    schema: Type.Array(entry, { default: [] }),
    check: (_part: unknown, _path: string, platform: Record<string, unknown>) => treeProblems(key, platform),
    async apply(part, context) {
      const time = new Date(context.clock.now()).toISOString();
      // Folders may name a folder listed after them: put them parents first.
      const entries = key === 'folders' ? parentsFirst(part as AnyEntry[]) : (part as AnyEntry[]);
      for (const e of entries) await context.store.part(TREE).put(node(kind, e, parentOf(e), time));
      if (key === 'folders') await adoptUndeclaredParents(context);
    },
    async export({ store }) {
      return (await nodesOf(store, kind)).map((n) => entryOf(key, n)) as Array<Static<S>>;
    },
    summary: async (store) => [{ one: key.slice(0, -1), many: key, count: (await nodesOf(store, kind)).length }],
  };
}

function parentsFirst(entries: readonly AnyEntry[]): AnyEntry[] {
  const rids = new Set(entries.map((e) => e.rid));
  const out: AnyEntry[] = [];
  const placed = new Set<string>();
  let rest = [...entries];
  // Bounded: each round places at least one entry, or the rest (a cycle, refused by the check) goes as it is.
  while (rest.length > 0) {
    const ready = rest.filter((e) => e.parent === undefined || !rids.has(e.parent) || placed.has(e.parent));
    const batch = ready.length > 0 ? ready : rest;
    for (const e of batch) {
      out.push(e);
      placed.add(e.rid);
    }
    rest = rest.filter((e) => !placed.has(e.rid));
  }
  return out;
}

const nodesOf = async (store: Store, kind: NodeKind) => (await store.part(TREE).all()).filter((n) => n.kind === kind);

function entryOf(key: string, n: NodeRecord): Record<string, unknown> {
  const base = { rid: n.rid, name: n.displayName, ...(n.description !== undefined ? { description: n.description } : {}) };
  if (key === 'spaces') return base;
  const placed = { trashed: n.trashed, markings: n.markings };
  if (key === 'projects') return { ...base, space: n.parentRid, ...placed };
  if (key === 'folders') return { ...base, parent: n.parentRid, ...placed };
  return { ...base, parent: n.parentRid, type: n.type, ...placed };
}

export const TREE_SEEDS = [
  codec('spaces', 'SPACE', SpaceSeed, () => undefined),
  codec('projects', 'PROJECT', ProjectSeed, (e) => e.space),
  codec('folders', 'FOLDER', FolderSeed, (e) => e.parent),
  codec('resources', 'RESOURCE', ResourceSeed, (e) => e.parent),
] as const;
