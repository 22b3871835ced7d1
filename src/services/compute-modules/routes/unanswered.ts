// Jobs that no function of their module answers, made visible (issue 13). The runtime SDK ignores a job whose
// query type has no listener (it logs "No listener for query type" on the module's side and never posts a
// result), so without this an execute simply waits until it times out. Two signs are noticed here:
// - a job handed to a module whose posted function schemas do not name its query type;
// - a result in the SDK's failure shape, `{"error": ..., "reason"?: ...}`, which it posts when a function throws.
// Each is a warning log line, a note on the request's journal entry, and a `note` on the job's inspection.
// Nothing is stored: the note is derived from the job and the schemas whenever it is asked for.
import type { FastifyRequest } from 'fastify';
import type { JobRecord, Store } from '../../../store/store.js';

/** The function names of posted schemas (the runtime SDK's `functionName`). */
function functionNames(schemas: unknown[]): string[] {
  return schemas.flatMap((s) => {
    const name = (s as { functionName?: unknown } | null)?.functionName;
    return typeof name === 'string' ? [name] : [];
  });
}

const cut = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text);

function missingFunction(job: JobRecord, schemas: unknown[]): string | undefined {
  const names = functionNames(schemas);
  if (names.length === 0 || names.includes(job.queryType)) return undefined;
  return (
    `No function of the module answers the query type "${cut(job.queryType)}": its posted schemas name ${names.map((n) => `"${cut(n, 64)}"`).join(', ')}. ` +
    'The runtime SDK ignores such a job, so the execute waits until it times out; register a function of that name or fix the queryType.'
  );
}

/** The SDK's failure result: `{error}` or `{error, reason}`, strings, nothing else. */
function errorShape(body: Buffer): string | undefined {
  if (body.length === 0 || body.length > 65_536 || body[0] !== 0x7b) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  const keys = Object.keys(parsed as object);
  const { error, reason } = parsed as { error?: unknown; reason?: unknown };
  if (typeof error !== 'string' || !keys.every((k) => k === 'error' || k === 'reason') || (reason !== undefined && typeof reason !== 'string'))
    return undefined;
  return `The module answered with the runtime SDK's failure shape (its function threw): error "${cut(error, 64)}"${reason === undefined ? '' : `, reason "${cut(reason)}"`}. The job counts as succeeded with these bytes as its result.`;
}

/** The note of a job, for its inspection: why nothing (or only a failure) came back, when that can be seen. */
export function jobNote(job: JobRecord, schemas: unknown[]): string | null {
  return (
    (job.result ? errorShape(job.result.body) : undefined) ??
    (job.state === 'queued' || job.state === 'inProgress' ? missingFunction(job, schemas) : undefined) ??
    null
  );
}

/** The inspection body, with `note` only when there is one. */
export function withNote<T extends object>(wire: T, job: JobRecord, schemas: unknown[]): T & { note?: string } {
  const note = jobNote(job, schemas);
  return note === null ? wire : { ...wire, note };
}

/** At hand-out: warns when the module that takes the job has no function for it. */
export async function noteHandOut(request: FastifyRequest, store: Store, job: JobRecord): Promise<void> {
  const note = missingFunction(job, await store.computeModules.schemas(job.runtimeId));
  if (note === undefined) return;
  request.log.warn({ jobId: job.jobId, runtimeId: job.runtimeId, queryType: job.queryType }, note);
  request.journalNote = note;
}

/** At a posted result: warns when it is the SDK's failure shape. */
export function noteResult(request: FastifyRequest, jobId: string, body: Buffer): void {
  const note = errorShape(body);
  if (note === undefined) return;
  request.log.warn({ jobId }, note);
  request.journalNote = note;
}
