// Link and unlink edits (docs/contracts.md §9): from either side of a foreign-key link and of a many-to-many link; an
// unlink of objects that are not linked changes nothing; a seed problem list stays short.
import { beforeEach, describe, expect, it } from 'vitest';
import { validateTestSeed } from '../helpers/seed.js';
import type { FastifyInstance } from 'fastify';
import { bearer, buildTestApp, mintToken } from '../helpers/app.js';
import { SeedError } from '../../src/seed/load.js';

const SEED = `
platform:
  users: [{ username: dev }]
  ontologies:
    - api_name: org
      display_name: Org
      object_types:
        - api_name: Person
          primary_key: id
          properties: { id: string, teamId: string }
          links:
            - { api_name: team, target: Team, foreign_key: teamId, reverse: members }
            - { api_name: friends, target: Person, reverse: friendOf, pairs: [] }
        - api_name: Team
          primary_key: id
          properties: { id: string }
      objects:
        Team: [{ id: red }, { id: blue }]
        Person: [{ id: ann, teamId: red }, { id: bo }]
      action_types:
        - api_name: join
          parameters: { team: { type: object, objectTypeApiName: Team }, person: { type: object, objectTypeApiName: Person } }
          edits: [{ link: Team, primary_key: $team, link_type: members, target: $person }]
        - api_name: leave
          parameters: { team: { type: object, objectTypeApiName: Team }, person: { type: object, objectTypeApiName: Person } }
          edits: [{ unlink: Person, primary_key: $person, link_type: team, target: $team }]
        - api_name: befriend
          parameters: { a: { type: object, objectTypeApiName: Person }, b: { type: object, objectTypeApiName: Person } }
          edits: [{ link: Person, primary_key: $b, link_type: friendOf, target: $a }]
        - api_name: unfriend
          parameters: { a: { type: object, objectTypeApiName: Person }, b: { type: object, objectTypeApiName: Person } }
          edits: [{ unlink: Person, primary_key: $a, link_type: friends, target: $b }]
`;

let app: FastifyInstance;
let headers: Record<string, string>;
beforeEach(async () => {
  ({ app } = await buildTestApp({ seed: SEED }));
  headers = bearer(await mintToken(app, 'dev', ['api:ontologies-read', 'api:ontologies-write']));
});

const apply = async (action: string, parameters: Record<string, unknown>) => {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v2/ontologies/org/actions/${action}/apply`,
    headers,
    payload: { parameters, options: { returnEdits: 'ALL_V2_WITH_DELETIONS' } },
  });
  expect(res.statusCode).toBe(200);
  return res.json();
};
const linked = async (type: string, pk: string, link: string) =>
  (await app.inject({ url: `/api/v2/ontologies/org/objects/${type}/${pk}/links/${link}`, headers }))
    .json()
    .data.map((o: { __primaryKey: string }) => o.__primaryKey);

describe('link and unlink edits', () => {
  it('from the side without the foreign key, and unlink only when linked', async () => {
    const joined = await apply('join', { team: 'blue', person: 'bo' });
    expect(joined.edits.edits).toEqual([
      {
        type: 'addLink',
        linkTypeApiNameAtoB: 'members',
        linkTypeApiNameBtoA: 'team',
        aSideObject: { primaryKey: 'blue', objectType: 'Team' },
        bSideObject: { primaryKey: 'bo', objectType: 'Person' },
      },
    ]);
    expect(await linked('Team', 'blue', 'members')).toEqual(['bo']);
    expect(await linked('Person', 'bo', 'team')).toEqual(['blue']);
    await apply('leave', { team: 'blue', person: 'ann' }); // ann is in red: nothing changes
    expect(await linked('Person', 'ann', 'team')).toEqual(['red']);
    const left = await apply('leave', { team: 'red', person: 'ann' });
    expect(left.edits).toMatchObject({ deletedLinksCount: 1 });
    expect(await linked('Team', 'red', 'members')).toEqual([]);
  });

  it('many-to-many from either side', async () => {
    await apply('befriend', { a: 'ann', b: 'bo' }); // bo friendOf ann: the pair (ann, bo)
    expect(await linked('Person', 'ann', 'friends')).toEqual(['bo']);
    expect(await linked('Person', 'bo', 'friendOf')).toEqual(['ann']);
    await apply('unfriend', { a: 'ann', b: 'bo' });
    expect(await linked('Person', 'ann', 'friends')).toEqual([]);
  });

  it('reports at most 100 seed problems', () => {
    const objects = Array.from({ length: 500 }, () => ({ id: 1 }));
    const doc = {
      platform: {
        ontologies: [
          { api_name: 'o', display_name: 'O', object_types: [{ api_name: 'T', primary_key: 'id', properties: { id: 'string' } }], objects: { T: objects } },
        ],
      },
    };
    const err = (() => {
      try {
        validateTestSeed(doc);
      } catch (e) {
        return e as SeedError;
      }
    })();
    expect(err).toBeInstanceOf(SeedError);
    expect(err!.problems).toHaveLength(101);
    expect(err!.problems[100]).toBe('... and 400 more problems');
  });
});
