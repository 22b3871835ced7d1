// The connectivity service's control routes (docs/contracts.md §7): list connections (secret NAMES only) and
// create or update one from a seed entry plus secret values, which never leave the store again.
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { DomainRecord } from '../../store/store.js';
import type { ServiceDeps } from '../service-module.js';
import { CONTROL_ROUTE } from '../../http/route-config.js';
import { seedEntry } from '../../seed/entry.js';
import { connectionSeedOf, connectionsSeed } from './seed.js';

function domainView(domain: DomainRecord) {
  return { host: domain.host, port: domain.port ?? null, scheme: domain.scheme ?? null, auth: domain.auth?.type ?? null };
}

const ConnectionBody = Type.Object(
  { secrets: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 256 }), Type.String({ maxLength: 65536 }))) },
  { additionalProperties: true },
);

export function connectivityBackstage(parent: FastifyInstance, { store }: ServiceDeps): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/_emulate/platform/connections', { config: CONTROL_ROUTE }, async () => ({
    connections: (await store.connections.list()).map((c) => ({
      rid: c.rid,
      displayName: c.displayName,
      domains: c.domains.map(domainView),
      // Names only: the values never leave the store.
      secretNames: Object.keys(c.secrets).sort(),
    })),
  }));

  const RidParam = Type.Object({ rid: Type.String({ minLength: 1, maxLength: 256 }) });
  app.put('/_emulate/platform/connections/:rid', { config: CONTROL_ROUTE, schema: { params: RidParam, body: ConnectionBody } }, async (request) => {
    const { secrets = {}, ...rest } = request.body;
    const old = await store.connections.byRid(request.params.rid);
    const c = seedEntry(connectionsSeed, {
      domains: old?.domains.map(({ host, port, scheme }) => ({ host, port, scheme })) ?? [],
      ...rest,
      rid: request.params.rid,
    });
    const record = {
      rid: request.params.rid,
      displayName: c.display_name,
      parentFolderRid: c.parent_folder_rid,
      worker: old?.worker ?? { type: 'foundryWorker' as const, networkEgressPolicyRids: [] },
      // Domains given here carry no auth; kept domains keep theirs (their secret names stay valid).
      domains:
        (request.body as { domains?: unknown }).domains === undefined && old
          ? old.domains
          : c.domains.map((d) => ({ host: d.host, port: d.port, scheme: d.scheme })),
      oauth2ClientRid: old?.oauth2ClientRid,
      secrets: { ...(old?.secrets ?? {}), ...secrets },
    };
    const created = await store.connections.upsert(record);
    // Secret names only: no value leaves the service (docs/contracts.md §4).
    return { created, connection: { ...connectionSeedOf(record), secret_names: Object.keys(record.secrets).sort() } };
  });
}
