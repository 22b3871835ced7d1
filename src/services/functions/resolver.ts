// The functions service's side of the ontology's function query resolver (ontologies/queries/function-resolver.ts):
// which registered functions an ontology lists, and running one. A seeded query of the same api name wins; the
// collision is logged once per name and app (docs/functions.md, "Registration").
import type { Store, OntologyRecord } from '../../store/store.js';
import type { JobService } from '../compute-modules/jobs.js';
import type { FunctionQueryResolver } from '../ontologies/queries/function-resolver.js';
import { functionQueryWire, registeredFunctions, type FunctionQuery } from './registry.js';
import { callFunction, type CallOutcome } from './call.js';
import { quote, temporarilyUnavailable } from '../../errors.js';
import { actionValidationFailed } from '../ontologies/errors.js';
import { readModuleEdits } from './action-edits.js';
import { callLogOf, recorded, type CallRecord } from './call-log.js';

export interface ResolverDeps {
  store: Store;
  /** The compute-module routes' job service (absent until they are registered). */
  jobs(): JobService | undefined;
  warn(message: string): void;
}

/** A note for the journal and the dashboard: the function, the job it became, its outcome and duration. */
export const callNote = (fn: FunctionQuery, outcome: CallOutcome) =>
  `function ${fn.apiName} ran as job ${outcome.job.jobId} of runtime ${outcome.job.runtimeId}: ${outcome.job.state} in ${Math.max(0, (outcome.job.finishedAt ?? 0) - outcome.job.submittedAt)} ms`;

export interface FunctionsResolver extends FunctionQueryResolver {
  /** Runs a found function: the answer `{value}` and the journal's note. */
  run(
    fn: FunctionQuery,
    parameters: Record<string, unknown>,
    signal: AbortSignal,
    via?: CallRecord['via'],
  ): Promise<{ answer: { value: unknown }; note: string }>;
}

export function functionResolver(deps: ResolverDeps): FunctionsResolver {
  const warned = new Set<string>();
  const log = callLogOf(deps.store);
  /** The ontology's functions, without those a seeded query shadows. */
  const visible = async (ontology: OntologyRecord): Promise<FunctionQuery[]> =>
    (await registeredFunctions(deps.store, ontology)).filter((fn) => {
      if (!ontology.queryTypes.has(fn.apiName)) return true;
      const key = `${ontology.apiName}\u0000${fn.apiName}\u0000${fn.app.deployedAppRid}`;
      if (!warned.has(key)) {
        warned.add(key);
        deps.warn(
          `the seeded query ${fn.apiName} of ontology ${ontology.apiName} wins over the function of the same name that ${fn.app.deployedAppRid}'s module registered`,
        );
      }
      return false;
    });

  async function run(fn: FunctionQuery, parameters: Record<string, unknown>, signal: AbortSignal, via: CallRecord['via'] = 'functions') {
    const jobs = deps.jobs();
    if (!jobs) throw temporarilyUnavailable('Functions need the compute-module routes, which this server does not serve.');
    const outcome = await recorded(log, { function: fn.apiName, via }, (seen) => callFunction(jobs, fn, parameters, signal, { seen, store: deps.store }));
    return { answer: { value: outcome.value }, note: callNote(fn, outcome) };
  }

  return {
    list: async (ontology) => (await visible(ontology)).map(functionQueryWire),
    get: async (ontology, apiName) => {
      const fn = (await visible(ontology)).find((f) => f.apiName === apiName);
      return fn && functionQueryWire(fn);
    },
    execute: async (ontology, apiName, parameters, signal) => {
      const fn = (await visible(ontology)).find((f) => f.apiName === apiName);
      return fn && run(fn, parameters, signal, 'ontologies');
    },
    run,
    actionEdits: async (ontology, actionType, functionApiName, parameters, signal) => {
      const jobs = deps.jobs();
      const fn =
        (await visible(ontology)).find((f) => f.apiName === functionApiName) ??
        (await registeredFunctions(deps.store)).find((f) => f.apiName === functionApiName);
      if (!jobs || !fn)
        throw actionValidationFailed(actionType).because(
          `Action ${actionType} runs the function ${quote(functionApiName)}, which no module has registered (is its module running?); nothing was applied.`,
        );
      return recorded(log, { function: fn.apiName, via: 'action' }, async (seen) => {
        const outcome = await callFunction(jobs, fn, parameters, signal, { raw: true, seen, store: deps.store });
        const read = readModuleEdits(ontology, outcome.value);
        if ('problem' in read)
          throw actionValidationFailed(actionType).because(
            `The edits that ${fn.apiName} returned for action ${actionType} (job ${outcome.job.jobId}) do not fit ontology ${ontology.apiName}: ${read.problem}; nothing was applied.`,
          );
        return { ...read, note: callNote(fn, outcome) };
      });
    },
  };
}
