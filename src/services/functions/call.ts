// A function call (docs/functions.md, "Execution"): the parameters are checked against the query type (the
// module never sees a bad call), become a job for the app's runtime, and the module's answer comes back as
// `{value}` in the output type; a failure, a value that does not fit, or no answer in time is the SDK's error.
import type { JobService } from '../compute-modules/jobs.js';
import type { JobRecord, Store } from '../../store/store.js';
import { checkObjectParameters } from './object-params.js';
import { quote } from '../../errors.js';
import { isRecord } from '../ontologies/model/data-types.js';
import { invalidParameterValue, missingParameter, unknownParameter } from '../ontologies/errors.js';
import { names, shown } from '../ontologies/reasons.js';
import { convert, queryDataTypeWire } from './types.js';
import { moduleFailure } from './failure.js';
import { invalidQueryOutputValue, queryRuntimeError, queryTimeExceededLimit } from './errors.js';
import type { FunctionQuery } from './registry.js';

export interface CallOutcome {
  value: unknown;
  job: JobRecord;
}

/** The parameters in the module's wire form, or the SDK's refusal naming the first problem. */
export function moduleQuery(fn: FunctionQuery, given: Record<string, unknown>): Record<string, unknown> {
  const declared = fn.parameters.map((p) => p.name);
  const unknown = Object.keys(given).filter((k) => !declared.includes(k));
  if (unknown.length)
    throw unknownParameter(unknown, declared).because(`Function ${fn.apiName} declares no parameter ${names(unknown)}; it declares ${names(declared)}.`);
  const missing = fn.parameters.filter((p) => p.required && (given[p.name] === undefined || given[p.name] === null)).map((p) => p.name);
  if (missing.length)
    throw missingParameter(missing).because(`Function ${fn.apiName} needs the parameter ${names(missing)}, which the request did not give (or gave as null).`);
  const query: Record<string, unknown> = {};
  for (const p of fn.parameters) {
    if (given[p.name] === undefined || given[p.name] === null) continue;
    const r = convert(p.type, given[p.name], true, p.name);
    if ('problem' in r)
      throw invalidParameterValue(p.name, queryDataTypeWire(p.type), given[p.name]).because(
        `Parameter ${r.problem} (function ${fn.apiName}); the request gave ${shown(given[p.name])}.`,
      );
    query[p.name] = r.value;
  }
  return query;
}

/** Reads the module's answer: the value in the caller's form, QueryRuntimeError with the module's message, or InvalidQueryOutputValue. */
export function readAnswer(fn: FunctionQuery, job: JobRecord, raw = false): unknown {
  const body = job.result?.body ?? Buffer.alloc(0);
  let value: unknown;
  try {
    value = body.length === 0 ? null : JSON.parse(body.toString('utf8'));
  } catch {
    throw queryRuntimeError(fn, 'The module answered with a result that is not JSON.').because(
      `Job ${job.jobId} of ${fn.apiName}: the module posted ${body.length} bytes that are not JSON.`,
    );
  }
  const failure = moduleFailure(value, fn.output);
  if (failure)
    throw queryRuntimeError(fn, failure.message, failure.stacktrace).because(
      `Job ${job.jobId} of ${fn.apiName}: the module's function failed: ${quote(failure.message, 200)}.`,
    );
  if (raw) return value; // edits for an action: read by action-edits.ts
  const converted = convert(fn.output, value, false, 'the result');
  if ('problem' in converted) {
    throw invalidQueryOutputValue(fn, queryDataTypeWire(fn.output), value).because(
      `Job ${job.jobId} of ${fn.apiName}: the module's result does not fit the output type: ${converted.problem}; it posted ${shown(value)}.`,
    );
  }
  return converted.value;
}

/**
 * Runs the call as a job and waits for it at most the app's timeout; a job left unanswered is canceled. `raw`:
 * the answer unconverted; `seen`: told the job as it ended (for the call log); `store`: object parameters are
 * checked to exist first.
 */
export async function callFunction(
  jobs: JobService,
  fn: FunctionQuery,
  given: Record<string, unknown>,
  signal: AbortSignal,
  options: { raw?: boolean; seen?: (job: JobRecord) => void; store?: Store } = {},
): Promise<CallOutcome> {
  const { raw = false, seen, store } = options;
  const query = moduleQuery(fn, isRecord(given) ? given : {});
  if (store) await checkObjectParameters(store, fn, query);
  const job = await jobs.executeWithin(
    { deployedAppRid: fn.app.deployedAppRid, deployedAppBranch: fn.app.branch, queryType: fn.functionName, query },
    fn.app.timeoutMs,
    signal,
  );
  seen?.(job);
  switch (job.state) {
    case 'succeeded':
      return { value: readAnswer(fn, job, raw), job };
    case 'failed':
      throw queryRuntimeError(fn, job.failure ?? 'The job failed.').because(`Job ${job.jobId} of ${fn.apiName} failed: ${job.failure ?? 'no reason given'}.`);
    case 'canceled':
      throw queryRuntimeError(fn, 'The job running the function was canceled.').because(
        `Job ${job.jobId} of ${fn.apiName} was canceled before the module answered.`,
      );
    default: {
      // No answer in time (or the caller went away): the job is canceled so that no module runs it later.
      const now = (await jobs.cancel(job.jobId)) ?? job;
      seen?.(now);
      if (now.state === 'succeeded') return { value: readAnswer(fn, now, raw), job: now }; // answered just then
      const taken = now.handOuts > 0 ? 'handed to the module' : 'never taken by a module';
      throw queryTimeExceededLimit(fn).because(
        `Job ${job.jobId} of ${fn.apiName} had no answer within ${fn.app.timeoutMs} ms (functions.timeout_ms of ${fn.app.deployedAppRid}); it was ${taken} and is now canceled.`,
      );
    }
  }
}
