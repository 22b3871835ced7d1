// The seed, strictly: a list written as a mapping (the dash forgotten), a mapping written as a list, a
// relative redirect URI are errors with their paths; a scope one slip away from a scope the service enforces
// is a warning naming that scope. Each of these once passed silently.
import { describe, expect, it } from 'vitest';
import { parseTestSeed } from '../helpers/seed.js';
import { SeedError } from '../../src/seed/load.js';
import { buildTestApp } from '../helpers/app.js';

function problemsOf(text: string): string[] {
  try {
    parseTestSeed(text);
  } catch (err) {
    if (err instanceof SeedError) return err.problems;
    throw err;
  }
  throw new Error('expected a SeedError');
}

describe('a list written as a mapping is an error with its path', () => {
  it('users: the dash forgotten', () => {
    const problems = problemsOf('platform:\n  users:\n    username: alice\n');
    expect(problems).toEqual([expect.stringMatching(/^platform\.users: must be a list, but is written as a mapping/)]);
    expect(problems[0]).toContain('- username:');
  });

  it('oauth_clients: the dash forgotten no longer means open mode', () => {
    const problems = problemsOf('platform:\n  oauth_clients:\n    client_id: app\n    client_secret: s\n');
    expect(problems).toEqual([expect.stringMatching(/^platform\.oauth_clients: must be a list, but is written as a mapping/)]);
  });

  it.each([
    ['connections', 'platform:\n  connections:\n    display_name: C\n    parent_folder_rid: ri.f\n', 'platform.connections'],
    ['ontologies', 'platform:\n  ontologies:\n    api_name: o\n    display_name: O\n', 'platform.ontologies'],
    [
      'queries',
      'platform:\n  ontologies:\n    - api_name: o\n      display_name: O\n      queries:\n        api_name: q\n        result: 1\n',
      'platform.ontologies[0].queries',
    ],
    [
      'domains',
      'platform:\n  connections:\n    - display_name: C\n      parent_folder_rid: ri.f\n      domains:\n        host: h\n',
      'platform.connections[0].domains',
    ],
    ['runtimes', 'platform:\n  compute_modules:\n    runtimes:\n      runtime_id: r\n', 'platform.compute_modules.runtimes'],
    [
      'deployed_apps',
      'platform:\n  compute_modules:\n    deployed_apps:\n      deployed_app_rid: ri.a\n      runtime_id: r\n',
      'platform.compute_modules.deployed_apps',
    ],
    [
      'redirect_uris',
      'platform:\n  oauth_clients:\n    - client_id: a\n      redirect_uris:\n        x: http://localhost/cb\n',
      'platform.oauth_clients[0].redirect_uris',
    ],
    [
      'grant_types',
      'platform:\n  oauth_clients:\n    - client_id: a\n      grant_types:\n        g: client_credentials\n',
      'platform.oauth_clients[0].grant_types',
    ],
    [
      'allowed_scopes',
      'platform:\n  oauth_clients:\n    - client_id: a\n      allowed_scopes:\n        s: api:admin-read\n',
      'platform.oauth_clients[0].allowed_scopes',
    ],
    ['an attribute', 'platform:\n  users:\n    - username: u\n      attributes:\n        team:\n          name: x\n', 'platform.users[0].attributes.team'],
  ])('%s', (_, text, path) => {
    const problems = problemsOf(text);
    expect(problems).toEqual([expect.stringMatching(new RegExp(`^${path.replace(/[.[\]]/g, '\\$&')}: must be a list, but is written as a mapping`))]);
  });

  it('reports every such problem at once, beside the other problems', () => {
    const problems = problemsOf('platform:\n  users:\n    username: alice\n  oauth_clients:\n    client_id: a\n  connections:\n    - display_name: C\n');
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toContain('platform.users: must be a list');
    expect(problems.join('\n')).toContain('platform.oauth_clients: must be a list');
    expect(problems.join('\n')).toContain('platform.connections[0].parent_folder_rid: required');
  });
});

describe('a mapping written as a list is an error with its path', () => {
  it('platform: []', () => {
    expect(problemsOf('platform: []\n')).toEqual([expect.stringMatching(/^platform: must be a mapping, but is written as a list/)]);
  });

  it.each([
    ['platform:\n  enrollment: [a]\n', 'platform.enrollment'],
    ['platform:\n  compute_modules: []\n', 'platform.compute_modules'],
    ['platform:\n  users:\n    - [username, alice]\n', 'platform.users[0]'],
    ['platform:\n  users:\n    - username: u\n      attributes: [team]\n', 'platform.users[0].attributes'],
  ])('%j', (text, path) => {
    expect(problemsOf(text)).toEqual([expect.stringMatching(new RegExp(`^${path.replace(/[.[\]]/g, '\\$&')}: must be a mapping, but is written as a list`))]);
  });

  it('an empty mapping and empty lists stay accepted', () => {
    const seed = parseTestSeed('platform:\n  users: []\n  oauth_clients: []\n  enrollment: {}\n  compute_modules: {}\n');
    expect(seed.users).toEqual([]);
    expect(seed.compute_modules.runtimes).toEqual([]);
  });
});

describe('redirect URIs must be absolute http(s) URIs without a fragment', () => {
  it.each(['/callback', 'callback', 'localhost:8080/cb', '//localhost/cb', 'ftp://host/cb', 'http://localhost/cb#frag', ''])(
    '%j is refused with its path',
    (uri) => {
      const problems = problemsOf(`platform:\n  oauth_clients:\n    - client_id: a\n      redirect_uris: [http://localhost/ok, ${JSON.stringify(uri)}]\n`);
      expect(problems).toEqual([
        expect.stringMatching(/^platform\.oauth_clients\[0\]\.redirect_uris\[1\]: must be an absolute http or https URI without a fragment/),
      ]);
    },
  );

  it('does not quote the URI back in full when it is long', () => {
    const long = `/${'x'.repeat(500)}`;
    const problems = problemsOf(`platform:\n  oauth_clients:\n    - client_id: a\n      redirect_uris: [${long}]\n`);
    expect(problems[0]!.length).toBeLessThan(300);
  });

  it('absolute http and https URIs, loopback or not, with queries, are accepted', () => {
    const seed = parseTestSeed(
      'platform:\n  oauth_clients:\n    - client_id: a\n      redirect_uris: [http://localhost:8080/cb, https://app.example/cb?x=1, http://127.0.0.1/cb]\n',
    );
    expect(seed.oauth_clients[0]!.redirect_uris).toHaveLength(3);
  });
});

describe('a scope one slip away from an enforced scope is a warning naming it', () => {
  it('api:admin-reed -> api:admin-read, with the path', async () => {
    const { summary, app } = await buildTestApp({
      seed: 'platform:\n  oauth_clients:\n    - client_id: a\n      allowed_scopes: [api:ontologies-read, api:admin-reed]\n',
    });
    await app.close();
    expect(summary.warnings).toEqual([
      'platform.oauth_clients[0].allowed_scopes[1]: "api:admin-reed" is not a scope the service knows; did you mean "api:admin-read"?',
    ]);
  });

  it.each([
    ['API:ADMIN-READ', 'api:admin-read'],
    ['api:connectivity-connection-wirte', 'api:connectivity-connection-write'],
    ['api:ontologies-reads', 'api:ontologies-read'],
    ['offline-access', 'offline_access'],
  ])('%s -> %s', async (typo, known) => {
    const { summary, app } = await buildTestApp({ seed: `platform:\n  oauth_clients:\n    - client_id: a\n      allowed_scopes: [${typo}]\n` });
    await app.close();
    expect(summary.warnings).toEqual([expect.stringContaining(`did you mean "${known}"?`)]);
  });

  it('known scopes and unrelated custom scopes get no warning', async () => {
    const { summary, app } = await buildTestApp({
      seed: 'platform:\n  oauth_clients:\n    - client_id: a\n      allowed_scopes: [api:admin-read, offline_access, my-team:custom-scope, openid]\n',
    });
    await app.close();
    expect(summary.warnings).toEqual([]);
  });
});
