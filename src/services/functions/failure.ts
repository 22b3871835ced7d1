// What a module's answer says when its function failed (docs/functions.md, "Failures"). Neither SDK marks a
// failure on the wire: both post it as the job's result, the TypeScript SDK as `{error: <Error name>, reason:
// <message>}`, the Python SDK as `{exception: "<message>: <traceback>"}` (or `{error: ...}` for a query type it
// does not know). Such an object is read as a failure unless the output type is a struct or map that could
// hold exactly that value.
import { isRecord } from '../ontologies/model/data-types.js';
import type { FnType } from './types.js';

export interface ModuleFailure {
  message: string;
  stacktrace?: string;
}

const TRACEBACK = ': Traceback (most recent call last):';

export function moduleFailure(value: unknown, output: FnType): ModuleFailure | undefined {
  if (!isRecord(value)) return undefined;
  const inner = output.kind === 'optional' ? output.inner : output;
  const keys = Object.keys(value);
  if (inner.kind === 'struct' && keys.every((k) => inner.fields.some((f) => f.name === k))) return undefined;
  if (inner.kind === 'map' || inner.kind === 'unsupported') return undefined;
  if (keys.length === 1 && typeof value.exception === 'string') {
    const at = value.exception.indexOf(TRACEBACK);
    return at < 0 ? { message: value.exception } : { message: value.exception.slice(0, at), stacktrace: value.exception.slice(at + 2) };
  }
  if (typeof value.error === 'string' && keys.every((k) => k === 'error' || k === 'reason')) {
    const reason = typeof value.reason === 'string' ? value.reason : undefined;
    return { message: reason === undefined ? value.error : `${value.error}: ${reason}` };
  }
  return undefined;
}
