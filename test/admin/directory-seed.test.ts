// The directory's and the tree's seed keys: validation names the path of each problem (cycles, unknown members
// and markings, missing parents, taken names), and the state export round-trips runtime changes
// (docs/directory.md, "Seed").
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, mintToken } from '../helpers/app.js';
import { stableUuid } from '../../src/ids.js';
import { seededGroupId } from '../../src/services/admin/seed-refs.js';

async function problemsOf(seed: string): Promise<string> {
  try {
    await buildTestApp({ seed });
  } catch (err) {
    return String((err as Error).message);
  }
  throw new Error('the seed was accepted');
}

describe('directory seed validation', () => {
  it('refuses a group that contains itself, through nested groups too', async () => {
    const text = await problemsOf(`
platform:
  groups:
    - { name: a, members: [{ group: b }] }
    - { name: b, members: [{ group: a }] }
    - { name: c, members: [{ group: c }] }
`);
    expect(text).toContain('platform.groups[0].members: group "a" contains itself');
    expect(text).toContain('platform.groups[1].members: group "b" contains itself');
    expect(text).toContain('platform.groups[2].members: group "c" contains itself');
  });

  it('refuses unknown members, duplicate groups, unknown categories and markings', async () => {
    const text = await problemsOf(`
platform:
  users: [{ username: alice }]
  groups:
    - { name: a, members: [alice, ghost, { group: nobody }] }
    - { name: a }
  marking_categories: [{ id: c, name: C }]
  markings:
    - { id: m, name: M, category: missing, members: [ghost2] }
  spaces: [{ rid: ri.s, name: S }]
  projects: [{ rid: ri.p, name: P, space: ri.s, markings: [nope] }]
`);
    expect(text).toContain('platform.groups[0].members[1]: no user "ghost"');
    expect(text).toContain('platform.groups[0].members[2].group: no group "nobody"');
    expect(text).toContain('platform.groups[1].name: duplicate group "a"');
    expect(text).toContain('platform.markings[0].category: no marking category "missing"');
    expect(text).toContain('platform.markings[0].members[0]: no user "ghost2"');
    expect(text).toContain('platform.projects[0].markings[0]: no marking "nope"');
  });

  it('refuses missing or wrong parents, folder cycles and names taken in a parent', async () => {
    const text = await problemsOf(`
platform:
  spaces: [{ rid: ri.s, name: S }, { rid: ri.s2, name: S }]
  projects: [{ rid: ri.p, name: P, space: ri.nospace }, { rid: ri.q, name: Q, space: ri.s }]
  folders:
    - { rid: ri.f1, name: f1, parent: ri.f2 }
    - { rid: ri.f2, name: f2, parent: ri.f1 }
    - { rid: ri.f3, name: x, parent: ri.q }
    - { rid: ri.f4, name: y, parent: ri.s }
  resources:
    - { rid: ri.r1, name: x, parent: ri.q }
    - { rid: ri.f3, name: z, parent: ri.missing }
`);
    expect(text).toContain('platform.spaces[1].name: "S" is taken in its parent by platform.spaces[0]');
    expect(text).toContain('platform.projects[0].space: no space "ri.nospace" is declared');
    expect(text).toContain('platform.folders[0].parent: folder "ri.f1" is its own ancestor');
    expect(text).toContain('platform.folders[3].parent: "ri.s" is a space, which cannot hold a folder');
    expect(text).toContain('platform.resources[0].name: "x" is taken in its parent by platform.folders[2]');
    expect(text).toContain('platform.resources[1].rid: "ri.f3" is declared already at platform.folders[2]');
    expect(text).toContain('platform.resources[1].parent: no project or folder "ri.missing" is declared');
  });
});

const SEED = `
platform:
  users: [{ username: alice }, { username: bob }]
  groups:
    - { name: analysts, description: Readers, members: [alice, { group: leads }], attributes: { team: [data] } }
    - { name: leads, members: [bob] }
  marking_categories: [{ id: classification, name: Classification, type: DISJUNCTIVE, marking_type: CBAC }]
  markings: [{ id: secret, name: SECRET, category: classification, members: [{ group: analysts }] }]
  cbac_banner: { classification: UNCLASSIFIED, text_color: "#fff", background_colors: ["#3a3"] }
  spaces: [{ rid: ri.compass.main.folder.space-main, name: Main }]
  projects: [{ rid: ri.compass.main.folder.proj, name: Demo, space: ri.compass.main.folder.space-main, markings: [secret] }]
  folders: [{ rid: ri.compass.main.folder.data, name: data, parent: ri.compass.main.folder.proj }]
  resources: [{ rid: ri.foundry.main.dataset.sales, name: sales, parent: ri.compass.main.folder.data }]
`;

describe('directory state export', () => {
  it('round-trips groups, markings, the banner and the tree, with runtime changes', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const token = await mintToken(app, 'alice', ['api:admin-write', 'api:admin-read', 'api:filesystem-write']);
    const created = await app.inject({
      method: 'POST',
      url: '/api/v2/admin/groups',
      headers: bearer(token),
      payload: { name: 'ops', organizations: ['o'], attributes: {} },
    });
    await app.inject({
      method: 'POST',
      url: `/api/v2/admin/groups/${created.json().id}/groupMembers/add`,
      headers: bearer(token),
      payload: { principalIds: [stableUuid('user:bob'), seededGroupId('leads')] },
    });
    await app.inject({ method: 'DELETE', url: '/api/v2/filesystem/resources/ri.foundry.main.dataset.sales', headers: bearer(token) });
    await app.inject({
      method: 'POST',
      url: '/api/v2/filesystem/folders',
      headers: bearer(token),
      payload: { parentFolderRid: 'ri.compass.main.folder.data', displayName: 'more' },
    });

    const first = (await app.inject({ url: '/_emulate/platform/state' })).json() as { platform: Record<string, unknown> };
    expect(first.platform.groups).toContainEqual(expect.objectContaining({ name: 'ops', id: created.json().id, members: ['bob', { group: 'leads' }] }));
    expect(first.platform.groups).toContainEqual(expect.objectContaining({ name: 'analysts', members: ['alice', { group: 'leads' }] }));
    expect(first.platform.markings).toEqual([{ id: 'secret', name: 'SECRET', category: 'classification', members: [{ group: 'analysts' }] }]);
    expect(first.platform.resources).toContainEqual(expect.objectContaining({ rid: 'ri.foundry.main.dataset.sales', trashed: true }));
    expect(first.platform.folders).toContainEqual(expect.objectContaining({ name: 'more', parent: 'ri.compass.main.folder.data' }));
    expect(first.platform.cbac_banner).toEqual({ classification: 'UNCLASSIFIED', text_color: '#fff', background_colors: ['#3a3'] });

    const second = await buildTestApp({ seed: first });
    expect(second.summary.warnings.filter((w) => !/scope|open mode/.test(w))).toEqual([]);
    expect((await second.app.inject({ url: '/_emulate/platform/state' })).json()).toEqual(first);
  });
});
