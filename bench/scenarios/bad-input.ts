// Malformed requests under the same load as good ones: never a 5xx or a dropped connection, and no more server
// CPU per request than the good requests of the same route. Each family runs good and bad interleaved.
import type { AutocannonRequest } from 'autocannon';
import { ADMIN_SCOPE, CLIENT_ID } from '../lib/fixtures.js';
import { interleave } from '../lib/compare.js';
import { basicAuth } from '../lib/http.js';
import { check, newResult, no5xxCheck } from '../lib/report.js';
import type { Scenario } from '../lib/scenario.js';
import { mintTokens, routeAvailable, startEmulator } from '../lib/servers.js';
import { settings } from '../lib/settings.js';
import { clientCredentialsRequest, TOKEN_PATH } from './token-endpoint.js';

const GET_CURRENT = '/api/v2/admin/users/getCurrent';
const MINT = '/_emulate/platform/tokens';
const json = { 'content-type': 'application/json' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };

const badGetCurrent: AutocannonRequest[] = [
  { method: 'GET', path: GET_CURRENT, headers: { authorization: 'Bearer platform_notAtokenWeEverIssued000000000000000000000' } },
  { method: 'GET', path: GET_CURRENT },
  { method: 'GET', path: GET_CURRENT, headers: { authorization: 'Basic Zm9vOmJhcg==' } },
  { method: 'GET', path: GET_CURRENT, headers: { authorization: 'Bearer a b c' } },
];

const badJson: AutocannonRequest[] = [
  { method: 'POST', path: MINT, headers: json, body: '{"username": "admin", "scopes": [' },
  { method: 'POST', path: MINT, headers: { 'content-type': 'text/plain' }, body: 'username=admin' },
  { method: 'POST', path: MINT, headers: json, body: '{"username": 5}' },
  { method: 'POST', path: MINT, headers: json, body: '' },
];

const badToken: AutocannonRequest[] = [
  { method: 'POST', path: TOKEN_PATH, headers: { ...form, authorization: basicAuth(CLIENT_ID, 'wrong-secret') }, body: 'grant_type=client_credentials' },
  { method: 'POST', path: TOKEN_PATH, headers: json, body: '{"grant_type": ' },
  { method: 'POST', path: TOKEN_PATH, headers: { ...form, authorization: 'Basic %%%notbase64' }, body: 'grant_type=client_credentials' },
  { method: 'POST', path: TOKEN_PATH, headers: form, body: 'grant_type=%E0%A4%A&scope=%' },
  { method: 'POST', path: TOKEN_PATH, headers: { ...form, authorization: basicAuth(CLIENT_ID, 'x') }, body: 'grant_type=password' },
];

export const badInput: Scenario = {
  name: 'bad-input',
  title: 'malformed requests (bad JSON, bad tokens, wrong content types) against good ones, per route',
  async run() {
    const result = newResult(this.name, this.title);
    const emulator = await startEmulator();
    try {
      const tokens = await mintTokens(emulator, 1000, [ADMIN_SCOPE]);
      const families: Array<{ name: string; good: AutocannonRequest[]; bad: AutocannonRequest[] }> = [
        { name: 'getCurrent', good: tokens.map((t) => ({ method: 'GET', path: GET_CURRENT, headers: { authorization: `Bearer ${t}` } })), bad: badGetCurrent },
        {
          name: 'JSON body',
          good: [{ method: 'POST', path: MINT, headers: json, body: JSON.stringify({ username: 'admin', scopes: [ADMIN_SCOPE] }) }],
          bad: badJson,
        },
      ];
      if (await routeAvailable(emulator, 'POST', TOKEN_PATH))
        families.push({ name: 'token endpoint', good: [clientCredentialsRequest(TOKEN_PATH)], bad: badToken });
      else result.notes.push('token endpoint: skipped: route not available');
      for (const family of families) {
        const loads = await interleave([
          { name: `${family.name}: good`, server: emulator, load: { requests: family.good, connections: settings.connections } },
          { name: `${family.name}: bad`, server: emulator, load: { requests: family.bad, connections: settings.connections } },
        ]);
        const [good, bad] = loads as [(typeof loads)[0], (typeof loads)[0]];
        result.loads.push(good, bad);
        no5xxCheck(result, bad);
        check(result, `${family.name}: dropped connections or timeouts`, bad.errors, 'max', 0, '');
        check(result, `${family.name}: CPU per bad request vs good`, bad.cpuUsPerRequest / good.cpuUsPerRequest, 'max', 1, 'x');
      }
    } finally {
      await emulator.stop();
    }
    return result;
  },
};
