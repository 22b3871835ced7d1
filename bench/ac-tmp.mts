import autocannon from 'autocannon';
const GC = '/api/v2/admin/users/getCurrent';
const bad = [
  { method: 'GET', path: GC, headers: { authorization: 'Bearer platform_notAtokenWeEverIssued000000000000000000000' } },
  { method: 'GET', path: GC },
  { method: 'GET', path: GC, headers: { authorization: 'Basic Zm9vOmJhcg==' } },
  { method: 'GET', path: GC, headers: { authorization: 'Bearer a b c' } },
];
const json = { 'content-type': 'application/json' };
const badJson = [
  { method: 'POST', path: '/_emulate/platform/tokens', headers: json, body: '{"username": "admin", "scopes": [' },
  { method: 'POST', path: '/_emulate/platform/tokens', headers: { 'content-type': 'text/plain' }, body: 'username=admin' },
  { method: 'POST', path: '/_emulate/platform/tokens', headers: json, body: '{"username": 5}' },
  { method: 'POST', path: '/_emulate/platform/tokens', headers: json, body: '' },
];
const r = await autocannon({ url: 'http://127.0.0.1:45601', connections: 10, duration: 5, requests: process.argv[2] === 'json' ? badJson : bad });
console.log(r.requests.average, JSON.stringify(r.statusCodeStats));
