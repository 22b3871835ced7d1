// Conformance: the platform hooks of @osdk/react 2.57.0, their own code rendered by React 18 against a live server
// (docs/directory.md): useCurrentFoundryUser, useFoundryUser, useFoundryUsersList, useUserViewMarkings (the
// current user's and another's), useMarkings, useMarkingCategories, and an error a hook reports.
// The package's entry for these hooks (`@osdk/react/platform-apis`) cannot load here: it also exports the CBAC
// hooks, whose modules import `CbacBanners` from an @osdk/foundry.admin newer than any the registry serves (2.38.0
// is the newest, and lacks it). Every other hook's module imports only what 2.38.0 has, so each is loaded from its
// own file in the installed package, with the provider the package ships for tests (`@osdk/react/testing`).
import { describe, expect, it } from 'vitest';
import React from 'react';
import TestRenderer, { act } from 'react-test-renderer';
import { createClient } from '@osdk/client';
import { TestOsdkProvider } from '@osdk/react/testing';
import { controlToken, liveEmulator } from './conformance-helpers.js';
import { stableUuid } from '../../src/ids.js';

const HOOKS = new URL('../../node_modules/@osdk/react/build/esm/new/platform-apis/admin/', import.meta.url);
type Hook = (...args: unknown[]) => Record<string, unknown>;
const hook = async (file: string, name: string) => ((await import(new URL(file, HOOKS).href)) as Record<string, Hook>)[name]!;

const baseUrl = liveEmulator(`
platform:
  users:
    - { username: alice, given_name: Alice, email: alice@example.com }
    - { username: bob, given_name: Bob }
    - { username: carol }
  groups:
    - { name: analysts, members: [alice, { group: leads }] }
    - { name: leads, members: [bob] }
  marking_categories: [{ id: classification, name: Classification }]
  markings:
    - { id: secret, name: SECRET, category: classification, members: [{ group: analysts }] }
    - { id: pii, name: PII, category: classification, members: [carol] }
`);

/** Renders `use` inside the package's provider until every result has loaded or failed; returns the last results. */
async function render(scopes: string[], use: () => Record<string, Record<string, unknown>>) {
  const token = await controlToken(baseUrl(), 'alice', scopes);
  // What an app gives its OsdkProvider: the typed client (the platform hooks call the admin API through it).
  const client = createClient(baseUrl(), 'ri.ontology.main.ontology.unused', async () => token);
  let latest: Record<string, Record<string, unknown>> = {};
  const Probe = () => {
    latest = use();
    return null;
  };
  let renderer: TestRenderer.ReactTestRenderer | undefined;
  await act(async () => {
    renderer = TestRenderer.create(
      React.createElement(TestOsdkProvider, { client, observableClient: undefined as never, children: React.createElement(Probe) }),
    );
  });
  for (let i = 0; i < 100 && Object.values(latest).some((r) => r.isLoading && r.error === undefined); i++)
    await act(() => new Promise((r) => setTimeout(r, 20)));
  act(() => renderer!.unmount());
  return latest;
}

describe('@osdk/react 2.57.0 platform hooks', () => {
  it('show the signed-in user, another user, the users list, markings and categories', async () => {
    const [useCurrentFoundryUser, useFoundryUser, useFoundryUsersList, useUserViewMarkings, useMarkings, useMarkingCategories] = await Promise.all([
      hook('useCurrentFoundryUser.js', 'useCurrentFoundryUser'),
      hook('useFoundryUser.js', 'useFoundryUser'),
      hook('useFoundryUsersList.js', 'useFoundryUsersList'),
      hook('useUserMarkings.js', 'useUserViewMarkings'),
      hook('useMarkings.js', 'useMarkings'),
      hook('useMarkingCategories.js', 'useMarkingCategories'),
    ]);
    const results = await render(['api:admin-read'], () => ({
      current: useCurrentFoundryUser(),
      bob: useFoundryUser(stableUuid('user:bob')),
      list: useFoundryUsersList({ pageSize: 2 }),
      myMarkings: useUserViewMarkings(),
      carolMarkings: useUserViewMarkings({ userId: stableUuid('user:carol') }),
      markings: useMarkings(),
      categories: useMarkingCategories(),
    }));
    for (const r of Object.values(results)) expect([r.isLoading, r.error]).toEqual([false, undefined]);
    expect(results.current!.currentUser).toMatchObject({ username: 'alice', givenName: 'Alice', email: 'alice@example.com' });
    expect(results.bob!.user).toMatchObject({ id: stableUuid('user:bob'), username: 'bob' });
    // A page of two, and the token to the next: the hook passes pageSize and include through.
    expect((results.list!.users as unknown[]).length).toBe(2);
    expect(results.list!.nextPageToken).toEqual(expect.any(String));
    expect(results.myMarkings!.markingIds).toEqual(['secret']);
    expect(results.carolMarkings!.markingIds).toEqual(['pii']);
    expect((results.markings!.markings as Array<{ id: string }>).map((m) => m.id).sort()).toEqual(['pii', 'secret']);
    expect((results.categories!.categories as Array<{ id: string }>).map((c) => c.id)).toEqual(['classification']);
  });

  it('reports what the platform refused: an unknown user, and a token without the scope', async () => {
    const useFoundryUser = await hook('useFoundryUser.js', 'useFoundryUser');
    const useMarkings = await hook('useMarkings.js', 'useMarkings');
    const unknown = await render(['api:admin-read'], () => ({ nobody: useFoundryUser(stableUuid('user:nobody')) }));
    expect(unknown.nobody!.error).toMatchObject({ errorName: 'UserNotFound', statusCode: 404 });
    const denied = await render(['api:ontologies-read'], () => ({ markings: useMarkings() }));
    expect((denied.markings!.error as { statusCode?: number }).statusCode).toBe(403);
  });
});
