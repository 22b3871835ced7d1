// Shared arrangements for the connectivity tests: scopes, a seed and a create request carrying secrets.
export const READ = 'api:connectivity-connection-read';
export const WRITE = 'api:connectivity-connection-write';
export const BASE = '/api/v2/connectivity/connections';

export const SEED = `
platform:
  users: [{ username: alice }]
  connections:
    - rid: ri.magritte..source.seeded
      display_name: Seeded API
      parent_folder_rid: ri.compass.main.folder.seeded
      domains: [{ host: api.seeded.example, port: 443, scheme: HTTPS }, { host: plain.example }]
`;

/** Secret values used in requests; none may ever come back in a response or a log line. */
export const SECRET = {
  bearer: 'sekret-bearer-7f3a9c',
  apiKey: 'sekret-apikey-51d2e0',
  password: 'sekret-password-c4b8f1',
  extraA: 'sekret-extra-a-90e2d7',
  extraB: 'sekret-extra-b-3a6f58',
  rotated: 'sekret-rotated-0b1c2d',
  added: 'sekret-added-e5f6a7',
};

const plain = (value: string) => ({ type: 'asPlaintextValue', value });

export function createRequest(overrides: Record<string, unknown> = {}) {
  return {
    parentFolderRid: 'ri.compass.main.folder.apps',
    displayName: 'Weather API',
    worker: { type: 'foundryWorker', networkEgressPolicyRids: ['ri.resource-policy-manager.global.network-egress-policy.w'] },
    configuration: {
      type: 'rest',
      domains: [
        { host: 'api.weather.example', port: 443, scheme: 'HTTPS', auth: { type: 'bearerToken', bearerToken: plain(SECRET.bearer) } },
        { host: 'keys.example', auth: { type: 'apiKey', location: { type: 'header', headerName: 'X-Api-Key' }, apiKey: plain(SECRET.apiKey) } },
        { host: 'basic.example', scheme: 'HTTPS', auth: { type: 'basic', username: 'svc', password: plain(SECRET.password) } },
        { host: 'oauth.example', auth: { type: 'oauth2' } },
        { host: 'open.example', scheme: 'HTTP' },
      ],
      additionalSecrets: { type: 'asSecretsWithPlaintextValues', secrets: { zeta: SECRET.extraA, alpha: SECRET.extraB } },
      oauth2ClientRid: 'ri.third-party-applications.main.application.x',
    },
    ...overrides,
  };
}

/** `createRequest()` with its configuration changed by `edit`. */
export function withConfiguration(edit: (configuration: Record<string, unknown>) => void) {
  const body = createRequest();
  edit(body.configuration as unknown as Record<string, unknown>);
  return body;
}

export const containsAnySecret = (text: string) => Object.values(SECRET).filter((s) => text.includes(s));
