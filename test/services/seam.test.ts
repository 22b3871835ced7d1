// The service seam (docs/architecture.md, "Adding an API"): a throwaway module from a fixture folder, handed to
// the app beside the one list, is served, seeded, reset, exported and journaled, with no edit anywhere else.
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, bearer, mintToken, platformError, type TestApp } from '../helpers/app.js';
import { SERVICES } from '../../src/services/index.js';
import { WIDGETS, widgetsService } from '../fixtures/widgets-service/index.js';

const services = [...SERVICES, widgetsService];
const seed = { platform: { widgets: [{ name: 'gear', colour: 'red' }, { name: 'cog' }] } };

let t: TestApp | undefined;
afterEach(async () => {
  await t?.app.close();
  t = undefined;
});

describe('a service module from a fixture folder', () => {
  it('is seeded with its own key, defaults filled, and its count reaches the summary', async () => {
    t = await buildTestApp({ seed, services });
    expect(await t.store.part(WIDGETS).get('cog')).toBe('grey');
    expect(t.summary.counts).toContainEqual({ one: 'widget', many: 'widgets', count: 2 });
  });

  it('serves its route behind its declared scope, in the platform envelope', async () => {
    t = await buildTestApp({ seed, services });
    const reader = await mintToken(t.app, 'admin', ['api:widgets-read']);
    const ok = await t.app.inject({ url: '/api/v2/widgets/gear', headers: bearer(reader) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ name: 'gear', colour: 'red' });
    const missing = await t.app.inject({ url: '/api/v2/widgets/none', headers: bearer(reader) });
    expect(missing.statusCode).toBe(404);
    expect(platformError(missing.json()).errorName).toBe('WidgetNotFound');
    const noScope = await t.app.inject({ url: '/api/v2/widgets/gear', headers: bearer(await mintToken(t.app)) });
    expect(noScope.statusCode).toBe(403);
  });

  it('is reset to its seed', async () => {
    t = await buildTestApp({ seed, services });
    const token = await mintToken(t.app, 'admin', []);
    const put = await t.app.inject({ method: 'PUT', url: '/api/v2/widgets/gear', headers: bearer(token), payload: { colour: 'blue' } });
    expect(put.statusCode).toBe(200);
    await t.app.inject({ method: 'PUT', url: '/api/v2/widgets/bolt', headers: bearer(token), payload: { colour: 'black' } });
    expect(await t.store.part(WIDGETS).get('gear')).toBe('blue');
    await t.app.resetToSeed();
    expect(await t.store.part(WIDGETS).get('gear')).toBe('red');
    expect(await t.store.part(WIDGETS).get('bolt')).toBeUndefined();
  });

  it('is exported under its key, and the export validates as a seed that gives the same state', async () => {
    t = await buildTestApp({ seed, services });
    const res = await t.app.inject({ url: '/_emulate/platform/state' });
    const doc = res.json() as { platform: { widgets: unknown } };
    expect(doc.platform.widgets).toEqual(
      expect.arrayContaining([
        { name: 'cog', colour: 'grey' },
        { name: 'gear', colour: 'red' },
      ]),
    );
    expect(doc.platform.widgets).toHaveLength(2);
    await t.app.close();
    t = await buildTestApp({ seed: doc, services });
    const again = (await t.app.inject({ url: '/_emulate/platform/state' })).json() as { platform: { widgets: unknown } };
    expect(again.platform.widgets).toEqual(doc.platform.widgets);
  });

  it('is journaled like every route', async () => {
    t = await buildTestApp({ seed, services });
    await t.app.inject({ url: '/api/v2/widgets/none', headers: bearer(await mintToken(t.app, 'admin', ['api:widgets-read'])) });
    const entries = t.app.journal.list({});
    expect(entries.some((e) => e.path === '/api/v2/widgets/none' && e.status === 404 && e.errorCode === 'WidgetNotFound')).toBe(true);
  });

  it('refuses its seed key when its own check fails, naming the path', async () => {
    await expect(buildTestApp({ seed: { platform: { widgets: [{ name: 'a' }, { name: 'a' }] } }, services })).rejects.toThrow(
      'platform.widgets[1].name: duplicate widget "a"',
    );
  });

  it('is unknown to an app built without it', async () => {
    await expect(buildTestApp({ seed })).rejects.toThrow('platform.widgets: unknown key');
    await expect(buildTestApp({ seed: { platform: { limits: { max_widget_colour_length: 3 } } } })).rejects.toThrow(
      'platform.limits.max_widget_colour_length: unknown key',
    );
  });

  it('declares its own cap under platform.limits: validated with its path, and read by its routes', async () => {
    await expect(buildTestApp({ seed: { platform: { limits: { max_widget_colour_length: 0 } } }, services })).rejects.toThrow(
      'platform.limits.max_widget_colour_length',
    );
    t = await buildTestApp({ seed: { platform: { ...seed.platform, limits: { max_widget_colour_length: 4 } } }, services });
    const writer = await mintToken(t.app, 'admin', []);
    const put = (colour: string) => t!.app.inject({ method: 'PUT', url: '/api/v2/widgets/gear', headers: bearer(writer), payload: { colour } });
    expect((await put('blue')).statusCode).toBe(200);
    const refused = await put('purple');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ errorName: 'WidgetColourTooLong', parameters: { maxColour: '4' } });
    expect(await t.store.part(WIDGETS).get('gear')).toBe('blue');
  });
});
