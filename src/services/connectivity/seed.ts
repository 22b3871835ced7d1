// The connectivity service's seed key `connections` (docs/contracts.md §4). Connection secrets are never seeded
// nor exported: they are set through the control route and no secret value leaves the service.
import { Type, type Static } from '@sinclair/typebox';
import type { ConnectionRecord } from '../../store/store.js';
import type { SeedCodec } from '../../seed/codec.js';
import { byKey, defined } from '../../seed/helpers.js';
import { stableUuid } from '../../ids.js';

const closed = { additionalProperties: false } as const;
const NonEmpty = Type.String({ minLength: 1 });

const DomainSeed = Type.Object(
  {
    host: NonEmpty,
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
    scheme: Type.Optional(Type.Union([Type.Literal('HTTP'), Type.Literal('HTTPS')])),
  },
  closed,
);

export const ConnectionSeed = Type.Object(
  {
    rid: Type.Optional(NonEmpty),
    display_name: NonEmpty,
    parent_folder_rid: NonEmpty,
    domains: Type.Array(DomainSeed, { default: [] }),
  },
  closed,
);
export type ConnectionSeed = Static<typeof ConnectionSeed>;

/** Domains without their auth, and no secret: secret values never leave the service (docs/contracts.md §4). */
export const connectionSeedOf = (c: ConnectionRecord) => ({
  rid: c.rid,
  display_name: c.displayName,
  parent_folder_rid: c.parentFolderRid,
  domains: c.domains.map((d) => defined({ host: d.host, port: d.port, scheme: d.scheme })),
});

export const connectionsSeed: SeedCodec<ConnectionSeed[]> = {
  key: 'connections',
  schema: Type.Array(ConnectionSeed, { default: [] }),
  example: [
    {
      rid: 'ri.magritte..source.weather',
      display_name: 'Weather API',
      parent_folder_rid: 'ri.compass.main.folder.example',
      domains: [{ host: 'api.weather.example', port: 443, scheme: 'HTTPS' }],
    },
  ],
  async apply(connections, { store, warn }) {
    for (const [i, c] of connections.entries()) {
      const rid = c.rid ?? `ri.magritte..source.${stableUuid(`connection:${i}:${c.display_name}`)}`;
      const inserted = await store.connections.insert({
        rid,
        displayName: c.display_name,
        parentFolderRid: c.parent_folder_rid,
        worker: { type: 'foundryWorker', networkEgressPolicyRids: [] },
        domains: c.domains.map((d) => ({ host: d.host, port: d.port, scheme: d.scheme })),
        secrets: {},
      });
      if (!inserted) warn(`platform.connections[${i}]: duplicate rid "${rid}" skipped (the first definition wins)`);
    }
  },
  export: async ({ store }) => (await store.connections.list()).map(connectionSeedOf) as ConnectionSeed[],
  merge: (base, imported) => byKey(base, imported, (c) => c.rid ?? `name:${c.display_name}`),
  summary: async (store) => [{ one: 'connection', many: 'connections', count: await store.connections.count() }],
};
