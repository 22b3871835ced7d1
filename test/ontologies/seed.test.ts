// The ontology seed (docs/contracts.md §9): every problem with its path, unsupported data types refused by name, and
// a valid seed compiled into object types, links and objects.
import { describe, expect, it } from 'vitest';
import { validateTestSeed } from '../helpers/seed.js';
import { parse } from 'yaml';
import { SeedError } from '../../src/seed/load.js';
import { ACME_SEED } from './fixture.js';

const problemsOf = (ontology: Record<string, unknown>): string[] => {
  try {
    validateTestSeed({ platform: { ontologies: [{ api_name: 'o', display_name: 'O', ...ontology }] } });
    return [];
  } catch (err) {
    if (err instanceof SeedError) return err.problems;
    throw err;
  }
};

const person = (extra: Record<string, unknown> = {}) => ({
  api_name: 'Person',
  primary_key: 'id',
  properties: { id: 'integer', name: 'string', boss: 'integer' },
  ...extra,
});

describe('ontology seed validation', () => {
  it('accepts the conformance seed', () => {
    const seed = validateTestSeed(parse(ACME_SEED));
    expect(seed.ontologies[0]!.object_types.map((t: { api_name: string }) => t.api_name)).toEqual(['Employee', 'Office']);
  });

  it('refuses data types a seed cannot write, naming them and the supported ones', () => {
    const problems = problemsOf({ object_types: [person({ properties: { id: 'integer', pic: 'cipherText', v: { type: 'vector' }, x: 'nonsense' } })] });
    expect(problems).toContainEqual(
      expect.stringMatching(
        /^platform\.ontologies\[0\]\.object_types\[0\]\.properties\.pic: data type "cipherText" is not supported by the emulator; supported: string, integer.*, attachment, mediaReference/,
      ),
    );
    expect(problems).toContainEqual(expect.stringMatching(/properties\.v: data type "vector" is not supported/));
    expect(problems).toContainEqual(expect.stringMatching(/properties\.x: data type "nonsense" is unknown/));
  });

  it('checks primary and title keys, values, duplicate keys and foreign keys, each with its path', () => {
    const problems = problemsOf({
      object_types: [
        person({
          title_property: 'nope',
          links: [
            { api_name: 'bossOf', target: 'Person', foreign_key: 'boss' },
            { api_name: 'x', target: 'Ghost', foreign_key: 'boss' },
          ],
        }),
        { api_name: 'Bad', primary_key: 'missing', properties: { d: 'double' } },
        { api_name: 'Dbl', primary_key: 'd', properties: { d: 'double' } },
      ],
      objects: {
        Person: [
          { id: 1, name: 'a' },
          { id: 1, name: 'b' },
          { id: 'two', name: 3 },
          { id: 3, boss: 99 },
          { id: 4, unknown: 1 },
        ],
        Ghost: [{ id: 1 }],
      },
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'platform.ontologies[0].object_types[0].title_property: "nope" is not one of the properties',
        'platform.ontologies[0].object_types[1].primary_key: "missing" is not one of the properties',
        'platform.ontologies[0].object_types[2].primary_key: a primary key must be of type string, integer, long, short, byte',
        'platform.ontologies[0].objects.Person[1].id: duplicate primary key 1',
        'platform.ontologies[0].objects.Person[2].id: must be an integer of type integer (-2147483648 to 2147483647)',
        'platform.ontologies[0].objects.Person[2].name: must be a string',
        'platform.ontologies[0].objects.Person[4].unknown: not a property of Person (properties: id, name, boss)',
        expect.stringMatching(/^platform\.ontologies\[0\]\.objects\.Ghost: no object type "Ghost"/),
        'platform.ontologies[0].object_types[0].links[1].target: no object type "Ghost"',
        expect.stringMatching(/^platform\.ontologies\[0\]\.objects\.Person\[\d\]\.boss: no Person with primary key 99$/),
      ]),
    );
  });

  it('checks pairs, every value type, queries and action edits', () => {
    const problems = problemsOf({
      object_types: [
        person({
          properties: {
            id: 'integer',
            d: 'date',
            ts: 'timestamp',
            g: 'geopoint',
            b: 'byte',
            arr: { type: 'array', subType: 'string' },
            s: { type: 'struct', structFieldTypes: [{ apiName: 'a', dataType: 'string' }] },
          },
          links: [{ api_name: 'friends', target: 'Person', pairs: [[2, 3], [2, 9], [2]] }],
        }),
      ],
      objects: {
        Person: [
          { id: 1, d: '2024-02-30', ts: '2024-01-01 10:00', g: { type: 'Point', coordinates: [200, 0] }, b: 300, arr: [1], s: { z: 1 } },
          { id: 2 },
          { id: 3 },
        ],
      },
      queries: [
        {
          api_name: 'q',
          result: null,
          parameters: { n: 'string' },
          cases: [
            { when: { m: 1 }, result: 1 },
            { when: { n: 5 }, result: 2 },
          ],
        },
      ],
      action_types: [
        {
          api_name: 'a',
          parameters: { p: 'integer' },
          edits: [
            { modify: 'Person', primary_key: '$q', set: { d: 'x' } },
            { create: 'Person', values: { d: '2024-01-01' } },
            { delete: 'Person' },
            { link: 'Person', primary_key: 1, link_type: 'enemies', target: 2 },
            { modify: 'Person', delete: 'Person' },
          ],
        },
      ],
    });
    const at = 'platform.ontologies[0]';
    expect(problems).toEqual(
      expect.arrayContaining([
        `${at}.objects.Person[0].d: must be a date YYYY-MM-DD`,
        `${at}.objects.Person[0].ts: must be an ISO 8601 timestamp with a zone (2024-01-02T03:04:05Z)`,
        `${at}.objects.Person[0].g: must be a GeoJSON point {type: Point, coordinates: [longitude, latitude]}`,
        `${at}.objects.Person[0].b: must be an integer of type byte (-128 to 127)`,
        `${at}.objects.Person[0].arr: [0] must be a string`,
        expect.stringMatching(/objects\.Person\[0\]\.s: has no field "z"/),
        `${at}.object_types[0].links[0].pairs[1][1]: no Person with primary key 9`,
        `${at}.object_types[0].links[0].pairs[2]: must be [this side's primary key, the target's primary key]`,
        `${at}.queries[0].cases[0].when.m: not a declared parameter (declared: n)`,
        `${at}.queries[0].cases[1].when.n: must be a string`,
        `${at}.action_types[0].edits[0].primary_key: $q is not a declared parameter (declared: p)`,
        `${at}.action_types[0].edits[0].set.d: must be a date YYYY-MM-DD`,
        `${at}.action_types[0].edits[1].values.id: required (the primary key)`,
        `${at}.action_types[0].edits[2].primary_key: required for a delete edit`,
        expect.stringMatching(/edits\[3\]\.link_type: Person has no link "enemies"/),
        `${at}.action_types[0].edits[4]: give exactly one of create, modify, delete, link, unlink`,
      ]),
    );
  });

  it('rejects unknown keys in an edit and an object type with the schema messages', () => {
    const problems = problemsOf({ object_types: [person({ primary_keys: 'x' })] });
    expect(problems[0]).toMatch(/^platform\.ontologies\[0\]\.object_types\[0\]\.primary_keys: unknown key/);
  });
});
