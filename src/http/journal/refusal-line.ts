// A refusal's log line (DESIGN principle 11), as the journal hook writes it for a routed request and for a fast
// lane's answer: one line per refusal, with the code and reason its journal entry shows.
import { PlatformError, type EmulatorError } from '../../errors.js';
import type { ErrorLine } from '../error-log.js';
import { redactUrl } from '../../redact.js';
import { errorCodeOf, reasonOf } from './reason.js';

export const levelOf = (status: number) => (status >= 500 ? 'error' : 'info');

export function refusalLine(
  reqId: string,
  refusal: EmulatorError,
  errorInstanceId: string | undefined,
  status: number,
  method: string,
  url: string,
  errorCode: string,
  reason: string,
): ErrorLine {
  const platform = refusal instanceof PlatformError;
  return {
    reqId,
    errorInstanceId,
    errorCode: platform ? refusal.errorCode : errorCode,
    errorName: platform ? refusal.errorName : undefined,
    status,
    method,
    path: redactUrl(url),
    reason,
  };
}

/** A refusal's journal words; a shared, frozen refusal's are worked out once. */
const wordsKept = new WeakMap<EmulatorError, { errorCode: string; reason: string }>();
export function wordsOf(refusal: EmulatorError): { errorCode: string; reason: string } {
  const kept = wordsKept.get(refusal);
  if (kept !== undefined) return kept;
  const words = { errorCode: errorCodeOf(refusal), reason: reasonOf(refusal) };
  if (Object.isFrozen(refusal)) wordsKept.set(refusal, words);
  return words;
}
