// The filesystem's store part: the tree of spaces, projects, folders and resources (docs/directory.md).
import type { StorePart } from '../../../store/parts.js';
import type { TreeRepo } from './records.js';
import { MemoryTree } from './memory.js';
import { PgTree, TREE_MIGRATIONS } from './postgres.js';

export const TREE: StorePart<TreeRepo> = {
  name: 'filesystem',
  tables: ['filesystem_nodes'],
  migrations: TREE_MIGRATIONS,
  memory: () => new MemoryTree(),
  postgres: (db) => new PgTree(db),
};
