// Pipeline mode's control route (docs/streams.md, "Pipeline mode"): what run-module asks for after opening a
// runtime session. For the deployed app (named, or the runtime's app that declares resources) it answers the
// resource alias map and a fresh build token; for an app without resources, `{}` (not pipeline mode).
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ServiceDeps } from '../../service-module.js';
import { CONTROL_ROUTE } from '../../../http/route-config.js';
import { PIPELINES, type PipelineApp } from './part.js';
import { mintBuildToken } from './build-token.js';

export const PIPELINE_SESSION = '/_emulate/platform/pipelines/session';

const Body = Type.Object(
  {
    runtimeId: Type.String({ minLength: 1 }),
    deployedAppRid: Type.Optional(Type.String({ minLength: 1 })),
    branch: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

export function pipelineBackstage(parent: FastifyInstance, { store, clock }: ServiceDeps): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  app.post(PIPELINE_SESSION, { config: CONTROL_ROUTE, schema: { body: Body } }, async (request) => {
    const { runtimeId, deployedAppRid, branch } = request.body;
    const pipelines = store.part(PIPELINES);
    let found: PipelineApp | undefined;
    if (deployedAppRid !== undefined) found = await pipelines.get(deployedAppRid, branch ?? 'master');
    else
      for (const a of await store.computeModules.deployedAppsOf(runtimeId)) {
        found = await pipelines.get(a.deployedAppRid, a.branch);
        if (found) break;
      }
    if (!found || Object.keys(found.resources).length === 0) return {};
    request.log.info({ deployedAppRid: found.deployedAppRid, aliases: Object.keys(found.resources) }, 'pipeline build token minted');
    return {
      deployedAppRid: found.deployedAppRid,
      branch: found.branch,
      resources: found.resources,
      buildToken: await mintBuildToken(store, clock, found),
    };
  });
}
