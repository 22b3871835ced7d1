// Registration (docs/functions.md, "Registration"): the functions a deployed app's module has posted become
// query types `com.<namespace>.computemodules.<functionName>`, version 0.0.0, in the app's ontologies. Nothing is
// copied at posting time: the query types are read from the schemas the runtime holds now (both stores keep
// them with the runtime), so a schema posted again replaces them, a session reset or `reset` removes them, and
// every instance sharing a store sees the same. A seeded query of the same api name wins (the caller logs it).
import type { Store, OntologyRecord } from '../../store/store.js';
import { stableUuid } from '../../ids.js';
import { isRecord } from '../ontologies/model/data-types.js';
import { FUNCTIONS_CONFIGS, type FunctionsConfig } from './store.js';
import { optional, queryDataTypeWire, readSchemaType, type FnType } from './types.js';

export const FUNCTION_VERSION = '0.0.0';

export interface FunctionQuery {
  apiName: string;
  rid: string;
  version: string;
  /** The name the module registered it under: the job's queryType. */
  functionName: string;
  parameters: Array<{ name: string; type: FnType; required: boolean; description?: string }>;
  output: FnType;
  app: FunctionsConfig;
}

export const functionApiName = (namespace: string, functionName: string) => `com.${namespace}.computemodules.${functionName}`;

/** Reads one posted schema; undefined when it is not a function schema at all. */
function readSchema(raw: unknown, app: FunctionsConfig): FunctionQuery | undefined {
  if (!isRecord(raw) || typeof raw.functionName !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,99}$/.test(raw.functionName)) return undefined;
  const inputs = Array.isArray(raw.inputs) ? raw.inputs.filter(isRecord) : [];
  const parameters = inputs
    .filter((i) => typeof i.name === 'string')
    .map((i) => {
      const type = readSchemaType(i.dataType);
      return {
        name: i.name as string,
        type,
        required: i.required !== false && !optional(type),
        ...(typeof i.description === 'string' ? { description: i.description } : {}),
      };
    });
  const output =
    isRecord(raw.output) && isRecord(raw.output.single) ? readSchemaType(raw.output.single.dataType) : ({ kind: 'unsupported', name: 'none' } as const);
  const apiName = functionApiName(app.namespace, raw.functionName);
  return {
    apiName,
    // Stable for the app and the function (so until reset and beyond): the same call finds the same rid.
    rid: `ri.function-registry.main.function.${stableUuid(`${app.deployedAppRid}\u0000${app.branch}\u0000${raw.functionName}`)}`,
    version: FUNCTION_VERSION,
    functionName: raw.functionName,
    parameters,
    output,
    app,
  };
}

/**
 * Reading a schema (types, a sha-256 for the rid) on every call is most of what the query layer adds to a job
 * round trip (docs/functions.md, "Bench"). A store that hands out the same schema object until it is replaced
 * (the memory store) gets each one read once per app configuration; a store that decodes fresh objects simply
 * misses. Keyed by the object, so a replaced or reset schema list is forgotten with it.
 */
const readCache = new WeakMap<object, { appKey: string; fn: FunctionQuery | undefined }>();
function readSchemaCached(raw: unknown, app: FunctionsConfig, appKey: string): FunctionQuery | undefined {
  if (!isRecord(raw)) return undefined;
  const hit = readCache.get(raw);
  if (hit && hit.appKey === appKey) return hit.fn;
  const fn = readSchema(raw, app);
  readCache.set(raw, { appKey, fn });
  return fn;
}

/** The registered functions of every app, or of the apps that list this ontology. */
export async function registeredFunctions(store: Store, ontology?: OntologyRecord): Promise<FunctionQuery[]> {
  const configs = (await store.part(FUNCTIONS_CONFIGS).list()).filter((c) => !ontology || !c.ontologies || c.ontologies.includes(ontology.apiName));
  const found: FunctionQuery[] = [];
  for (const app of configs) {
    const deployed = await store.computeModules.deployedApp(app.deployedAppRid, app.branch);
    if (!deployed) continue;
    const appKey = JSON.stringify(app);
    for (const raw of await store.computeModules.schemas(deployed.runtimeId)) {
      const fn = readSchemaCached(raw, app, appKey);
      if (fn && (app.register === 'auto' || app.register.includes(fn.functionName))) found.push(fn);
    }
  }
  return found;
}

/** QueryTypeV2 of @osdk/foundry.ontologies (and the functions API's Query): `required` on every parameter. */
export const functionQueryWire = (fn: FunctionQuery) => ({
  apiName: fn.apiName,
  displayName: fn.functionName,
  parameters: Object.fromEntries(
    fn.parameters.map((p) => [p.name, { ...(p.description ? { description: p.description } : {}), dataType: queryDataTypeWire(p.type), required: p.required }]),
  ),
  output: queryDataTypeWire(fn.output),
  rid: fn.rid,
  version: fn.version,
  typeReferences: {},
});
