// run-module's pipeline mode (docs/streams.md, "Pipeline mode"): for a deployed app that declares resources,
// the emulator hands a build token and the alias map; run-module writes them as the files the platform mounts
// (BUILD2_TOKEN: the token with no trailing newline; RESOURCE_ALIAS_MAP: `{alias: {rid, branch}}`, exactly those
// keys, which the Python SDK insists on), mode 0600 in run-module's private folder.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PIPELINE_SESSION } from './services/streams/pipeline/backstage.js';

export interface Pipeline {
  deployedAppRid: string;
  resources: Record<string, { rid: string; branch: string }>;
  buildToken: string;
}

/** The app's pipeline, or undefined when it declares no resources (or the emulator predates pipeline mode). */
export async function openPipeline(options: {
  url: string;
  runtimeId: string;
  deployedAppRid?: string;
  branch?: string;
  controlToken?: string;
}): Promise<Pipeline | undefined> {
  const res = await fetch(`${options.url.replace(/\/+$/, '')}${PIPELINE_SESSION}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(options.controlToken ? { authorization: `Bearer ${options.controlToken}` } : {}) },
    body: JSON.stringify({ runtimeId: options.runtimeId, deployedAppRid: options.deployedAppRid, branch: options.branch }),
  });
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`the emulator refused the pipeline session (${res.status}): ${(await res.text()).slice(0, 300)}`);
  const body = (await res.json()) as Partial<Pipeline>;
  return body.buildToken && body.resources && body.deployedAppRid ? (body as Pipeline) : undefined;
}

/** Writes the two files; answers the variables that name them. */
export function writePipelineFiles(dir: string, pipeline: Pipeline): { BUILD2_TOKEN: string; RESOURCE_ALIAS_MAP: string } {
  const token = join(dir, 'build2-token');
  const aliases = join(dir, 'resource-alias-map.json');
  writeFileSync(token, pipeline.buildToken, { mode: 0o600 });
  const map = Object.fromEntries(Object.entries(pipeline.resources).map(([alias, r]) => [alias, { rid: r.rid, branch: r.branch }]));
  writeFileSync(aliases, JSON.stringify(map), { mode: 0o600 });
  return { BUILD2_TOKEN: token, RESOURCE_ALIAS_MAP: aliases };
}
