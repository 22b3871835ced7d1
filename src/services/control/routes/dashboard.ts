// The dashboard at /_emulate/ui (docs/contracts.md §7): static files under src/ui, shipped in the package as
// they are (dist/ui after a build), so users need no front-end build step; each service's panels are scripts in
// its own folder's ui/ (dist/ui/panels/<service>/), served only when its backstage declares them. Served like the control routes
// (loopback, or the control token). `GET /` leads there when a browser asks, else it answers a small JSON
// index of the service's entry points.
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { notFound } from '../../../errors.js';
import { CONTROL_ROUTE } from '../../../http/route-config.js';
import type { ServiceModule } from '../../service-module.js';

export const DASHBOARD_PATH = '/_emulate/ui';

const ASSETS: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'dashboard.css': 'text/css; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
  'panel-kit.js': 'text/javascript; charset=utf-8',
};

/** Nothing but our own files; the page talks only to this origin; never framed. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The folder of the assets: beside the bundle in dist/ (dist/ui), or src/ui when run from the sources. */
function assetFolder(): string | undefined {
  for (const candidate of ['./ui/', '../ui/', '../../../ui/']) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(`${dir}index.html`) && existsSync(`${dir}dashboard.js`)) return dir;
  }
  return undefined;
}

/** A declared panel's script: beside the bundle (dist/ui/panels/<service>/), or in the service's folder (src). */
function panelFile(service: string, script: string): string | undefined {
  for (const candidate of [`./ui/panels/${service}/${script}`, `../../${service}/ui/${script}`]) {
    const file = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(file)) return file;
  }
  return undefined;
}

export function dashboardRoutes(app: FastifyInstance, services: readonly ServiceModule[]): void {
  // Read on first use and kept: three small files, and start-up stays as fast as before.
  let cache: Map<string, Buffer> | undefined;
  const asset = (name: string): Buffer => {
    if (!cache) {
      const dir = assetFolder();
      if (!dir) throw notFound('DashboardAssetsMissing', { hint: 'the package was built without dist/ui; run npm run build' });
      cache = new Map(Object.keys(ASSETS).map((file) => [file, readFileSync(`${dir}${file}`)]));
    }
    return cache.get(name)!;
  };

  const serve = (name: string) => async (_request: unknown, reply: FastifyReply) =>
    reply.type(ASSETS[name]!).header('Content-Security-Policy', CSP).header('X-Frame-Options', 'DENY').header('Cache-Control', 'no-cache').send(asset(name));

  app.get(DASHBOARD_PATH, { config: CONTROL_ROUTE }, serve('index.html'));
  // The views services declare (their backstage's `views`): the dashboard draws one panel for each.
  const views = services.flatMap((s) => (s.backstage?.views ?? []).map((view) => ({ service: s.name, ...view })));
  // The panels services draw with their own scripts (their backstage's `panels`), by the declared names only.
  const panels = services.flatMap((s) =>
    (s.backstage?.panels ?? []).map((panel) => ({ service: s.name, ...panel, src: `${DASHBOARD_PATH}/panels/${s.name}/${panel.script}` })),
  );
  const scripts = new Map<string, Buffer>();
  app.get<{ Params: { service: string; script: string } }>(`${DASHBOARD_PATH}/panels/:service/:script`, { config: CONTROL_ROUTE }, async (request, reply) => {
    const { service, script } = request.params;
    const key = `${service}/${script}`;
    let bytes = scripts.get(key);
    if (!bytes) {
      const file = panels.some((p) => p.service === service && p.script === script) ? panelFile(service, script) : undefined;
      if (!file) throw notFound('DashboardPanelNotFound', { panel: key });
      scripts.set(key, (bytes = readFileSync(file)));
    }
    return reply
      .type(ASSETS['dashboard.js']!)
      .header('Content-Security-Policy', CSP)
      .header('X-Frame-Options', 'DENY')
      .header('Cache-Control', 'no-cache')
      .send(bytes);
  });
  app.get(`${DASHBOARD_PATH}/views`, { config: CONTROL_ROUTE }, async () => ({ views, panels }));
  app.get(`${DASHBOARD_PATH}/dashboard.css`, { config: CONTROL_ROUTE }, serve('dashboard.css'));
  app.get(`${DASHBOARD_PATH}/dashboard.js`, { config: CONTROL_ROUTE }, serve('dashboard.js'));
  app.get(`${DASHBOARD_PATH}/panel-kit.js`, { config: CONTROL_ROUTE }, serve('panel-kit.js'));

  app.get('/', async (request, reply) => {
    if (/\btext\/html\b/.test(request.headers.accept ?? '')) return reply.redirect(DASHBOARD_PATH, 302);
    const base = app.publicUrl();
    return {
      service: 'platform-emulator',
      dashboard: `${base}${DASHBOARD_PATH}`,
      health: `${base}/_emulate/health`,
      ...Object.assign({}, ...services.map((s) => s.entryPoints?.(base) ?? {})),
      api: `${base}/api/v2`,
      journal: `${base}/_emulate/platform/journal`,
      events: `${base}/_emulate/platform/events`,
    };
  });
}
