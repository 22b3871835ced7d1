// The dashboard's routes without a browser: GET / leads a browser there and answers others with an index;
// the page and its two files are served with a strict CSP, like the control routes (loopback or the token).
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/app.js';

describe('dashboard routes', () => {
  it('redirects a browser from / and gives anything else a JSON index', async () => {
    const { app } = await buildTestApp();
    const browser = await app.inject({ url: '/', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(browser.statusCode).toBe(302);
    expect(browser.headers.location).toBe('/_emulate/ui');
    const tool = await app.inject({ url: '/' });
    expect(tool.statusCode).toBe(200);
    const index = tool.json();
    expect(index).toMatchObject({
      service: 'platform-emulator',
      dashboard: expect.stringMatching(/\/_emulate\/ui$/),
      api: expect.stringMatching(/\/api\/v2$/),
    });
    expect(index.oauth.token).toMatch(/\/idp\/api\/oauth2\/token$/);
  });

  it('serves the page and its script and style with a CSP that allows only themselves', async () => {
    const { app } = await buildTestApp();
    const page = await app.inject({ url: '/_emulate/ui' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.body).toContain('<script type="module" src="/_emulate/ui/dashboard.js"></script>');
    expect((await app.inject({ url: '/_emulate/ui/dashboard.js' })).headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await app.inject({ url: '/_emulate/ui/dashboard.css' })).headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await app.inject({ url: '/_emulate/ui/../../package.json' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/_emulate/ui/other.js' })).statusCode).toBe(404);
    // The script never parses data as markup.
    expect((await app.inject({ url: '/_emulate/ui/dashboard.js' })).body).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });

  it("lists the services' panels and serves only the scripts they declare", async () => {
    const { app } = await buildTestApp();
    const { panels } = (await app.inject({ url: '/_emulate/ui/views' })).json() as {
      panels: Array<{ service: string; id: string; src: string; topics: string[] }>;
    };
    // In the services' order: admin's users, oauth's tokens and clients, then connections, ontologies, runtimes.
    expect(panels.map((p) => `${p.service}:${p.id}`)).toEqual([
      'admin:users',
      'oauth:tokens',
      'oauth:clients',
      'connectivity:connections',
      'ontologies:ontologies',
      'compute-modules:runtimes',
    ]);
    for (const panel of panels) {
      const script = await app.inject({ url: panel.src });
      expect(script.statusCode, panel.src).toBe(200);
      expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(script.headers['content-security-policy']).toContain("script-src 'self'");
      expect(script.body).toContain("from '/_emulate/ui/panel-kit.js'");
      expect(script.body).toMatch(/export default \{ load \}/);
      expect(script.body).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    }
    expect((await app.inject({ url: '/_emulate/ui/panel-kit.js' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/_emulate/ui/panels/admin/other.js' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/_emulate/ui/panels/admin/..%2Fseed.ts' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/_emulate/ui/panels/oauth/users-panel.js' })).statusCode).toBe(404);
  });

  it('answers 404 off loopback without the control token', async () => {
    const { app } = await buildTestApp({ host: '0.0.0.0' });
    expect((await app.inject({ url: '/_emulate/ui' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/_emulate/platform/events' })).statusCode).toBe(404);
  });
});
