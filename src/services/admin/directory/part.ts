// The directory's store part: groups, memberships, markings and their categories (docs/directory.md).
import type { StorePart } from '../../../store/parts.js';
import type { DirectoryRepo } from './records.js';
import { MemoryDirectory } from './memory.js';
import { DIRECTORY_MIGRATIONS, DIRECTORY_TABLES, PgDirectory } from './postgres.js';

export const DIRECTORY: StorePart<DirectoryRepo> = {
  name: 'directory',
  tables: DIRECTORY_TABLES,
  migrations: DIRECTORY_MIGRATIONS,
  memory: () => new MemoryDirectory(),
  postgres: (db) => new PgDirectory(db),
};
