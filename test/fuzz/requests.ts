// Generators of hostile and careless requests for the fuzz suites: every route family's paths with random
// segments and percent-encodings, odd methods and headers, random bodies and content types.
import fc from 'fast-check';

/** How many runs: small under `npm test`, large under `npm run fuzz`, or FUZZ_RUNS. */
export function runs(quick: number): number {
  if (process.env.FUZZ_RUNS) return Number(process.env.FUZZ_RUNS);
  return process.env.npm_lifecycle_event === 'fuzz' ? quick * 40 : quick;
}

export const MUX = '/analytics-backend-multiplexer/api/module-group-multiplexer';
export const RUNTIMES = '/_emulate/platform/compute-modules/runtimes';
export const FUZZ_RUNTIME = 'fuzz-rt';
export const FUZZ_MODULE_TOKEN = 'fuzz-module-token-0123';
/** A deployed app whose jobs nobody answers: a synchronous execute for it would hold, so bodies never name it. */
export const QUIET_APP = 'ri.foundry.main.deployed-app.quiet';
export const OFF_APP = 'ri.foundry.main.deployed-app.off';
export const CLIENT_ID = 'fuzz-client';
export const CLIENT_SECRET = 'fuzz-secret-value-9f8e7d';

export const FUZZ_SEED = {
  platform: {
    users: [{ username: 'alice' }, { username: 'gone', active: false }, { username: 'svc', principal_type: 'service', oauth_client_id: CLIENT_ID }],
    oauth_clients: [
      { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: ['http://localhost:8080/cb'] },
      { client_id: 'fuzz-public', redirect_uris: ['http://127.0.0.1/cb'] },
    ],
    connections: [{ rid: 'ri.magritte..source.fuzz', display_name: 'Fuzz', parent_folder_rid: 'ri.compass.main.folder.f', domains: [{ host: 'api.example' }] }],
    ontologies: [{ api_name: 'fuzz-onto', display_name: 'Fuzz', rid: 'ri.ontology.main.ontology.fuzz', queries: [{ api_name: 'q', result: { value: 1 } }] }],
    compute_modules: {
      poll_timeout_ms: 1,
      execute_timeout_ms: 600_000,
      runtimes: [{ runtime_id: FUZZ_RUNTIME, module_auth_token: FUZZ_MODULE_TOKEN }],
      deployed_apps: [
        { deployed_app_rid: QUIET_APP, runtime_id: FUZZ_RUNTIME },
        { deployed_app_rid: OFF_APP, runtime_id: FUZZ_RUNTIME, active: false },
      ],
    },
  },
};

const segment = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom('fuzz-rt', 'x', 'ri.magritte..source.fuzz', 'fuzz-onto', 'q', 'admin', 'alice', 'gone', '00000000-0000-4000-8000-000000000000'),
  },
  { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme-ascii' }).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 6 }).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.integer({ min: 90, max: 1200 }).map((n) => 'L'.repeat(n)) },
);

/**
 * Route templates of every family; `*` is a random segment. The inject fuzzer adds every route of the app's own
 * table (./route-templates.ts); these stay for what the table does not list: wildcards of unknown paths.
 */
export const TEMPLATES = [
  '/idp/api/oauth2/token',
  '/idp/api/oauth2/revoke_token',
  '/idp/api/oauth2/introspect',
  '/idp/api/oauth2/authorize',
  '/idp/api/oauth2/authorize/callback',
  '/idp/api/oauth2/*',
  '/idp/api/me',
  '/.well-known/oauth-authorization-server/idp',
  '/api/v2/admin/users/getCurrent',
  '/api/v2/admin/enrollments/getCurrent',
  '/api/v2/admin/*',
  '/api/v2/connectivity/connections',
  '/api/v2/connectivity/connections/*',
  '/api/v2/connectivity/connections/*/getConfiguration',
  '/api/v2/connectivity/connections/*/updateSecrets',
  '/api/v2/ontologies',
  '/api/v2/ontologies/*',
  '/api/v2/ontologies/*/queries/*/execute',
  RUNTIMES,
  `${RUNTIMES}/*/job`,
  `${RUNTIMES}/*/schemas`,
  `${RUNTIMES}/*/results/*`,
  `${RUNTIMES}/*/jobs/*`,
  `${RUNTIMES}/*`,
  `${MUX}/compute-modules/jobs/execute`,
  `${MUX}/deployed-apps/jobs`,
  `${MUX}/deployed-apps/jobs/execute`,
  `${MUX}/jobs/*/status`,
  `${MUX}/jobs/status/v2`,
  `${MUX}/jobs/result/v2`,
  `${MUX}/jobs/*/result`,
  `${MUX}/jobs`,
  `${MUX}/jobs/*`,
  `${MUX}/schemas`,
  `${MUX}/*`,
  '/_emulate/health',
  '/_emulate/platform/tokens',
  '/_emulate/platform/clock',
  '/_emulate/platform/users/*/activate',
  '/_emulate/platform/*',
  '/*',
  '/',
  '/api/v2/*/*',
];

/** Percent-encodes some ASCII characters of a path (either hex case), as a client or a proxy might. */
const encodeSome = (path: string, picks: boolean[], lower: boolean) =>
  [...path]
    .map((c, i) => (c !== '/' && picks[i % picks.length] && c.charCodeAt(0) < 0x80 ? `%${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c))
    .map((c) => (lower ? c.toLowerCase() : c))
    .join('');

const BAD_ESCAPES = ['%', '%z', '%zz', '%E0%A4', '%C0%AF', '%FF', '%2', '%%', '%u0041'];

const query = fc.oneof(
  fc.constant(''),
  fc.constant('?preview=true'),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 16 }), { maxKeys: 3 }).map((d) => `?${new URLSearchParams(d)}`),
  fc.constantFrom(
    '?rid=ri.foundry.main.deployed-app.off',
    '?login_hint=alice&client_id=fuzz-public&response_type=code&redirect_uri=http://127.0.0.1/cb',
    '?%zz=1',
    '?a=%',
  ),
);

/** A path of some family, sometimes percent-encoded, sometimes with a bad escape or odd slashes, plus a query. */
export const pathFrom = (templates: readonly string[]) =>
  fc
    .record({
      template: fc.constantFrom(...templates),
      segments: fc.array(segment, { minLength: 2, maxLength: 2 }),
      encoding: fc.oneof(
        { weight: 5, arbitrary: fc.constant<null>(null) },
        { weight: 2, arbitrary: fc.record({ picks: fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }), lower: fc.boolean() }) },
      ),
      damage: fc.oneof(
        { weight: 6, arbitrary: fc.constant('') },
        { weight: 1, arbitrary: fc.constantFrom(...BAD_ESCAPES) },
        { weight: 1, arbitrary: fc.constantFrom('/', '//', '/.', '/..') },
      ),
      query,
    })
    .map(({ template, segments, encoding, damage, query: q }) => {
      let i = 0;
      let p = template.replace(/\*/g, () => segments[i++ % segments.length]!);
      if (encoding) p = encodeSome(p, encoding.picks, encoding.lower);
      return p + damage + q;
    });

export const path = pathFrom(TEMPLATES);

export const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'GET', 'POST');

const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.json({ maxDepth: 3 }),
  fc
    .record({
      username: fc.constantFrom('admin', 'alice', 'gone', 'svc', ''),
      scopes: fc.array(fc.constantFrom('api:admin-read', 'api:ontologies-read', 'x'), { maxLength: 3 }),
    })
    .map((v) => JSON.stringify(v)),
  fc
    .record({
      deployedAppRid: fc.oneof(fc.constant(OFF_APP), fc.string({ maxLength: 20 })),
      deployedAppBranch: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
      queryType: fc.string({ maxLength: 8 }),
      query: fc.jsonValue({ maxDepth: 3 }),
    })
    .map((v) => JSON.stringify(v)),
  fc
    .record({ runtimeId: fc.string({ maxLength: 20 }), moduleAuthToken: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }) })
    .map((v) => JSON.stringify(v)),
  fc.record({ id: fc.string({ maxLength: 40 }) }).map((v) => JSON.stringify(v)),
  fc.record({ secrets: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }) }).map((v) => JSON.stringify(v)),
  fc.record({ parameters: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }) }).map((v) => JSON.stringify(v)),
  fc.integer({ min: 60, max: 3000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 100, max: 3000 }).map((n) => `{${Array.from({ length: n }, (_, k) => `"k${k}":${k}`).join(',')}}`),
);

const formBody = fc
  .dictionary(
    fc.constantFrom(
      'grant_type',
      'client_id',
      'client_secret',
      'scope',
      'code',
      'refresh_token',
      'token',
      'redirect_uri',
      'code_verifier',
      'request_id',
      'username',
      'csrf',
      'x',
    ),
    fc.oneof(
      fc.constantFrom('client_credentials', 'authorization_code', 'refresh_token', CLIENT_ID, CLIENT_SECRET, 'fuzz-public', 'api:admin-read'),
      fc.string({ maxLength: 80 }),
    ),
    { maxKeys: 5 },
  )
  .chain((d) =>
    fc.oneof(
      fc.constant(new URLSearchParams(d).toString()),
      fc.constantFrom('grant_type=%E0%A4%A&scope=%', 'a=1&a=2', '=&&=', `grant_type=${'g'.repeat(5000)}`),
    ),
  );

export const body = fc.oneof(
  { weight: 2, arbitrary: fc.constant<string | undefined>(undefined) },
  { weight: 4, arbitrary: jsonBody },
  { weight: 2, arbitrary: formBody },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60, unit: 'binary' }) },
);

export const contentType = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'application/json',
      'application/x-www-form-urlencoded',
      'application/json; charset=utf-8',
      'text/plain',
      'application/octet-stream',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'multipart/form-data; boundary=x',
      'application/JSON',
      'application/vnd.api+json',
      ';;',
      'application/json; charset=latin1',
      '*/*',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20, unit: 'grapheme-ascii' }) },
);

/** Authorization and other headers: valid and invalid credentials, and odd ones. */
export function headers(validBearer: () => string, goneBearer: () => string) {
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  return fc
    .record(
      {
        authorization: fc.oneof(
          fc.constant('VALID'),
          fc.constant('GONE'),
          fc.constantFrom('Bearer ', 'Bearer nope', 'Basic %%%', basic(CLIENT_ID, CLIENT_SECRET), basic(CLIENT_ID, 'wrong'), 'bearer  x y', 'Digest x'),
          fc.string({ maxLength: 40, unit: 'grapheme-ascii' }),
        ),
        'module-auth-token': fc.oneof(fc.constant(FUZZ_MODULE_TOKEN), fc.string({ maxLength: 30, unit: 'grapheme-ascii' })),
        accept: fc.constantFrom('*/*', 'text/html', 'application/json', 'application/octet-stream', ''),
        origin: fc.constantFrom('http://localhost:3000', 'https://evil.example', 'null'),
        cookie: fc.string({ maxLength: 60, unit: 'grapheme-ascii' }),
        'x-long': fc.integer({ min: 0, max: 8000 }).map((n) => 'v'.repeat(n)),
        expect: fc.constantFrom('100-continue', 'nothing'),
      },
      { requiredKeys: [] },
    )
    .map((h) => {
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(h)) {
        if (value === undefined) continue;
        out[name] =
          name === 'authorization' && value === 'VALID'
            ? `Bearer ${validBearer()}`
            : name === 'authorization' && value === 'GONE'
              ? `Bearer ${goneBearer()}`
              : value;
      }
      return out;
    });
}
