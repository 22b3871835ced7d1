import { describe, expect, it } from 'vitest';
import { CODECS, parseTestSeed, validateTestSeed } from '../helpers/seed.js';
import { SeedError } from '../../src/seed/load.js';
import { STARTER_CONFIG } from '../../src/starter-config.js';

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof SeedError) return err.problems;
    throw err;
  }
  throw new Error('expected a SeedError');
}

describe('seed loading', () => {
  it('fills every default of SPEC §2', () => {
    const seed = parseTestSeed(`
platform:
  users: [{ username: bob }]
  oauth_clients: [{ client_id: app, client_secret: s }]
  connections: [{ display_name: C, parent_folder_rid: ri.f }]
  ontologies: [{ api_name: o, display_name: O, queries: [{ api_name: q, result: null }] }]
  compute_modules:
    deployed_apps: [{ deployed_app_rid: ri.app, runtime_id: r1 }]
`);
    expect(seed.users[0]).toEqual({
      username: 'bob',
      realm: 'platform-internal-realm',
      organization_rid: 'ri.organization.main.organization.default',
      principal_type: 'human',
      active: true,
      attributes: {},
    });
    expect(seed.oauth_clients[0]).toEqual({
      client_id: 'app',
      client_secret: 's',
      redirect_uris: [],
      grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
      allowed_scopes: [],
    });
    expect(seed.enrollment).toEqual({ rid: 'ri.enrollment..enrollment.default', name: 'Default Enrollment' });
    expect(seed.connections[0]!.domains).toEqual([]);
    expect(seed.ontologies[0]!.queries).toEqual([{ api_name: 'q', result: null }]);
    expect(seed.compute_modules.deployed_apps[0]).toEqual({ deployed_app_rid: 'ri.app', runtime_id: 'r1', branch: 'master', active: true });
    expect(seed.compute_modules.runtimes).toEqual([]);
  });

  it('accepts an empty document and a missing platform key as "no config"', () => {
    expect(parseTestSeed('').users).toEqual([]);
    expect(validateTestSeed({}).oauth_clients).toEqual([]);
  });

  it('reports every problem at once, each with its path', () => {
    const problems = problemsOf(() =>
      parseTestSeed(`
platform:
  port: nope
  users:
    - username: a
    - display_name: no name
    - username: c
      principal_type: robot
  oauth_clients:
    - client_secret: x
  ontologies:
    - api_name: o
      display_name: O
      queries: [{ api_name: q }]
`),
    );
    expect(problems).toEqual([
      'platform.port: must be an integer',
      'platform.users[1].username: required',
      'platform.users[2].principal_type: must be one of: human, service',
      'platform.oauth_clients[0].client_id: required',
      'platform.ontologies[0].queries[0].result: required',
    ]);
  });

  it('rejects unknown keys with a hint', () => {
    const problems = problemsOf(() =>
      parseTestSeed('platform:\n  user:\n    - username: a\n  oauth_clients:\n    - client_id: x\n      redirect_uri: [http://a]\n'),
    );
    expect(problems).toEqual([
      'platform.user: unknown key (did you mean `users`?)',
      'platform.oauth_clients[0].redirect_uri: unknown key (did you mean `redirect_uris`?)',
    ]);
    expect(problemsOf(() => parseTestSeed('users: []\n'))).toEqual(['users: unknown key (the root key is `platform`; put every setting under it)']);
    expect(problemsOf(() => parseTestSeed('platform:\n  zzzzzzzz: 1\n'))[0]).toMatch(
      /^platform.zzzzzzzz: unknown key \(known keys: port, https_port, host, base_url/,
    );
  });

  it('names a key that is not an identifier in brackets, as the API errors do', () => {
    expect(problemsOf(() => parseTestSeed('platform:\n  users:\n    - username: a\n      "user name": b\n'))).toEqual([
      'platform.users[0]["user name"]: unknown key (did you mean `username`?)',
    ]);
  });

  it('reports YAML syntax errors with their line', () => {
    const problems = problemsOf(() => parseTestSeed('platform:\n  users: [\n', 'bad.yaml'));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^line \d+, column \d+: /);
  });

  it('rejects a document that is not a mapping', () => {
    expect(problemsOf(() => parseTestSeed('- a\n- b\n'))).toEqual(['the document must be a mapping with the root key `platform`']);
  });

  it('keeps the starter config of `init` valid and complete', () => {
    const seed = parseTestSeed(STARTER_CONFIG);
    expect(seed.users.length).toBeGreaterThan(0);
    expect(seed.oauth_clients.length).toBeGreaterThan(0);
    expect(seed.connections.length).toBeGreaterThan(0);
    expect(seed.ontologies.length).toBeGreaterThan(0);
    expect(seed.compute_modules.runtimes.length).toBeGreaterThan(0);
    expect(seed.compute_modules.deployed_apps.length).toBeGreaterThan(0);
    for (const key of ['groups', 'markings', 'spaces', 'projects', 'folders', 'datasets', 'streams']) expect(seed[key], key).not.toEqual([]);
  });

  it("names every service's seed key in the starter config, and its commented examples are valid too", () => {
    // Generated from the services' list, so that a new service's key cannot be left out of `init`.
    for (const { key } of CODECS) expect(STARTER_CONFIG, key).toMatch(new RegExp(`(^|[\\s{#])${key}:`, 'm'));
    const optional = /^([ \t]*)# ((?:functions|client_id|sources|resources|cbac_banner): .*?)(?:[ \t]+#.*)?$/gm;
    expect(STARTER_CONFIG.match(optional)).toHaveLength(6);
    const seed = parseTestSeed(STARTER_CONFIG.replace(optional, '$1$2'));
    expect(seed.resources).toHaveLength(1);
    expect(seed.compute_modules.deployed_apps[0].functions).toMatchObject({ namespace: 'example' });
  });
});
