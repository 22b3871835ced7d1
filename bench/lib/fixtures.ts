// What every server under test is seeded with, so that each does the same work for the same request.
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';

export const CLIENT_ID = 'bench-client';
export const CLIENT_SECRET = 'bench-client-secret-0123456789';
export const REDIRECT_URI = 'http://127.0.0.1:9/callback';
export const ADMIN_SCOPE = 'api:admin-read';
export const DEPLOYED_APP_RID = 'ri.foundry.main.deployed-app.bench';
export const RUNTIME_ID = 'bench-runtime';

export interface SeedOptions {
  /** Human users beside the default admin. */
  users?: number;
  computeModules?: boolean;
  /** compute_modules.poll_timeout_ms, when a scenario holds polls longer than the default 2 s. */
  pollTimeoutMs?: number;
  /** The request journal's size (config journal_size); 0 turns it off. */
  journalSize?: number;
  /** The deployed app serves its module's functions as queries of an ontology `bench` (docs/functions.md). */
  functions?: boolean;
}

export function benchSeed(options: SeedOptions = {}): Record<string, unknown> {
  const users = Array.from({ length: options.users ?? 0 }, (_, i) => ({
    username: `user${String(i).padStart(5, '0')}`,
    display_name: `Bench User ${i}`,
    email: `user${i}@example.com`,
    given_name: 'Bench',
    family_name: `User ${i}`,
  }));
  return {
    platform: {
      // The scenarios measure throughput and the sweep of 1,000,000 tokens, not the caps: raised above what they mint.
      limits: { max_access_tokens: 10_000_000, max_refresh_tokens: 10_000_000 },
      ...(options.journalSize !== undefined ? { journal_size: options.journalSize } : {}),
      users,
      ...(options.functions ? { ontologies: [{ api_name: 'bench', rid: 'ri.ontology.main.ontology.bench', display_name: 'Bench' }] } : {}),
      oauth_clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          redirect_uris: [REDIRECT_URI],
          grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
        },
      ],
      ...(options.computeModules
        ? {
            compute_modules: {
              runtimes: [{ runtime_id: RUNTIME_ID }],
              deployed_apps: [
                {
                  deployed_app_rid: DEPLOYED_APP_RID,
                  runtime_id: RUNTIME_ID,
                  ...(options.functions ? { functions: { namespace: 'bench', timeout_ms: 30_000 } } : {}),
                },
              ],
              execute_timeout_ms: 30_000,
              ...(options.pollTimeoutMs ? { poll_timeout_ms: options.pollTimeoutMs } : {}),
            },
          }
        : {}),
    },
  };
}

/** Writes a seed file in a fresh temporary folder; returns its path. */
export function writeSeed(options: SeedOptions = {}): string {
  const file = join(mkdtempSync(join(tmpdir(), 'bench-seed-')), 'platform.yaml');
  writeFileSync(file, stringify(benchSeed(options)));
  return file;
}

/** The getCurrent body for the default admin (docs/contracts.md §3), which the baseline answers with. */
export const ADMIN_WIRE = {
  id: '00000000-0000-4000-8000-000000000000',
  username: 'admin',
  givenName: 'Admin',
  email: 'admin@localhost',
  realm: 'platform-internal-realm',
  organization: 'ri.organization.main.organization.default',
  status: 'ACTIVE',
  attributes: {
    'idp:realm': ['platform-internal-realm'],
    'idp:givenName': ['Admin'],
    'idp:email:primary': ['admin@localhost'],
    'idp:organization-rid': ['ri.organization.main.organization.default'],
  },
};
