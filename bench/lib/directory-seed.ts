// The directory scenario's data, shared by the seed file the emulator reads and the raw baseline: 10,000 users,
// 1,000 groups of which five nest (level0 holds level1 ... holds level4, which holds the user `deep`), and a
// marking held by level0, so that `deep` reaches it through five levels of groups.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const LEVELS = 5;
export const GROUPS = 1000;
export const MARKING = 'bench-secret';
export const username = (i: number) => `user${String(i).padStart(5, '0')}`;

export interface GroupDef {
  name: string;
  members: Array<string | { group: string }>;
}

export function groupDefs(users: number): GroupDef[] {
  const nested = Array.from({ length: LEVELS }, (_, l) => ({
    name: `level${l}`,
    members: l < LEVELS - 1 ? [{ group: `level${l + 1}` }] : ['deep'],
  }));
  const filler = Array.from({ length: GROUPS - LEVELS }, (_, g) => ({
    name: `team${String(g).padStart(4, '0')}`,
    members: Array.from({ length: 10 }, (_, k) => username((g * 10 + k) % users)),
  }));
  return [...nested, ...filler];
}

export function writeDirectorySeed(users: number): string {
  const doc = {
    platform: {
      users: [
        { username: 'deep' },
        ...Array.from({ length: users - 1 }, (_, i) => ({ username: username(i), given_name: `Given ${i}`, email: `${username(i)}@example.test` })),
      ],
      groups: groupDefs(users),
      marking_categories: [{ id: 'classification', name: 'Classification' }],
      markings: [{ id: MARKING, name: 'SECRET', category: 'classification', members: [{ group: 'level0' }] }],
    },
  };
  const file = join(mkdtempSync(join(tmpdir(), 'bench-directory-')), 'platform.yaml');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}
