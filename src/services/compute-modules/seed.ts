// The compute-modules service's seed key `compute_modules` (docs/contracts.md §6): runtimes, deployed apps, and
// the job settings (timeouts, caps) that ./settings.ts resolves. A deployed app may name a runtime that is not
// listed: it is created with a generated token. The export writes runtimes and apps (module auth tokens only
// when asked, docs/contracts.md §7), not the settings.
import { Type, type Static } from '@sinclair/typebox';
import type { DeployedAppRecord, RuntimeRecord } from '../../store/store.js';
import type { SeedCodec } from '../../seed/codec.js';
import { byKey, defined } from '../../seed/helpers.js';
import { randomSecret } from '../../ids.js';
import { DeployedAppSeed } from './deployed-app-seed.js';

const closed = { additionalProperties: false } as const;
const NonEmpty = Type.String({ minLength: 1 });
const PositiveMs = Type.Integer({ minimum: 1 });

const RuntimeSeed = Type.Object({ runtime_id: NonEmpty, module_auth_token: Type.Optional(NonEmpty) }, closed);

const ComputeModulesSeed = Type.Object(
  {
    runtimes: Type.Array(RuntimeSeed, { default: [] }),
    deployed_apps: Type.Array(DeployedAppSeed, { default: [] }),
    poll_timeout_ms: Type.Optional(PositiveMs),
    execute_timeout_ms: Type.Optional(PositiveMs),
    retained_jobs: Type.Optional(Type.Integer({ minimum: 0 })),
    max_result_bytes: Type.Optional(Type.Integer({ minimum: 1 })),
    pod_listener_port: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
    module_gone_ms: Type.Optional(PositiveMs),
    max_queued_jobs: Type.Optional(Type.Integer({ minimum: 1 })),
    max_retained_result_bytes: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { ...closed, default: {} },
);
type ComputeModulesSeed = Static<typeof ComputeModulesSeed>;

export const runtimeSeedOf = (r: RuntimeRecord) => ({ runtime_id: r.runtimeId, module_auth_token: r.moduleAuthToken });

export const deployedAppSeedOf = (a: DeployedAppRecord) =>
  defined({ deployed_app_rid: a.deployedAppRid, runtime_id: a.runtimeId, branch: a.branch, display_name: a.displayName, active: a.active });

export const computeModulesSeed: SeedCodec<ComputeModulesSeed> = {
  key: 'compute_modules',
  schema: ComputeModulesSeed,
  example: {
    runtimes: [{ runtime_id: 'adder-runtime', module_auth_token: 'adder-module-token' }],
    deployed_apps: [{ deployed_app_rid: 'ri.foundry.main.deployed-app.adder', runtime_id: 'adder-runtime', branch: 'master', active: true }],
  },
  async apply(cm, { store, warn }) {
    const skipped = (path: string, what: string) => warn(`${path}: duplicate ${what} skipped (the first definition wins)`);
    for (const [i, r] of cm.runtimes.entries()) {
      const inserted = await store.computeModules.insertRuntime({ runtimeId: r.runtime_id, moduleAuthToken: r.module_auth_token ?? randomSecret() });
      if (!inserted) skipped(`platform.compute_modules.runtimes[${i}]`, `runtime_id "${r.runtime_id}"`);
    }
    for (const [i, a] of cm.deployed_apps.entries()) {
      if (!(await store.computeModules.runtime(a.runtime_id))) {
        await store.computeModules.insertRuntime({ runtimeId: a.runtime_id, moduleAuthToken: randomSecret() });
      }
      const inserted = await store.computeModules.insertDeployedApp({
        deployedAppRid: a.deployed_app_rid,
        runtimeId: a.runtime_id,
        branch: a.branch,
        displayName: a.display_name,
        active: a.active,
      });
      if (!inserted) skipped(`platform.compute_modules.deployed_apps[${i}]`, `deployed app "${a.deployed_app_rid}" on branch "${a.branch}"`);
    }
  },
  async export({ store, secrets, omitted }) {
    const runtimes = await store.computeModules.listRuntimes();
    const apps = (await Promise.all(runtimes.map((r) => store.computeModules.deployedAppsOf(r.runtimeId)))).flat();
    return {
      runtimes: runtimes.map((r, i) => {
        if (secrets) return runtimeSeedOf(r);
        omitted(`platform.compute_modules.runtimes[${i}].module_auth_token`);
        return { runtime_id: r.runtimeId };
      }),
      deployed_apps: apps.map(deployedAppSeedOf),
    } as ComputeModulesSeed;
  },
  merge: (base, imported) => ({
    ...base,
    runtimes: byKey(base.runtimes, imported.runtimes, (r) => r.runtime_id),
    deployed_apps: byKey(base.deployed_apps, imported.deployed_apps, (a) => `${a.deployed_app_rid}\u0000${a.branch}`),
  }),
  summary: async (store) => [
    { one: 'runtime', many: 'runtimes', count: await store.computeModules.countRuntimes() },
    { one: 'deployed app', many: 'deployed apps', count: await store.computeModules.countDeployedApps() },
  ],
};
