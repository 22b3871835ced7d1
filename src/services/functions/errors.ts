// The failures of a function call, with the errorName, parameters and errorDescription of the platform SDK's own
// error types (@osdk/foundry.ontologies `_errors.d.ts`; the functions API uses the same names).
import { PlatformError } from '../../errors.js';
import type { FunctionQuery } from './registry.js';

export const queryRuntimeError = (fn: FunctionQuery, message: string, stacktrace?: string) =>
  new PlatformError(
    'INVALID_ARGUMENT',
    'QueryRuntimeError',
    { functionRid: fn.rid, functionVersion: fn.version, message, ...(stacktrace ? { stacktrace } : {}), parameters: {} },
    'The authored Query failed to execute because of a runtime error.',
  );

export const queryTimeExceededLimit = (fn: FunctionQuery) =>
  new PlatformError(
    'TIMEOUT',
    'QueryTimeExceededLimit',
    { functionRid: fn.rid, functionVersion: fn.version },
    'Time limits were exceeded for the Query execution.',
  );

/** The module's value does not fit the output type. A large value is not echoed back (a note says so). */
export const invalidQueryOutputValue = (fn: FunctionQuery, outputDataType: unknown, outputValue: unknown) => {
  const text = JSON.stringify(outputValue) ?? 'null';
  return new PlatformError(
    'INVALID_ARGUMENT',
    'InvalidQueryOutputValue',
    {
      outputDataType,
      outputValue: text.length <= 4096 ? outputValue : `(${text.length} characters of JSON, not shown)`,
      functionRid: fn.rid,
      functionVersion: fn.version,
    },
    "The value of the query's output is invalid. This may be because the return value did not match the specified output type or constraints.",
  );
};

/** The functions API's own not-found errors (@osdk/foundry.functions `_errors.d.ts`). */
export const functionQueryNotFound = (queryApiName: string) =>
  new PlatformError('NOT_FOUND', 'QueryNotFound', { queryApiName }, 'The given Query could not be found.');
export const functionNotFound = (functionRid: string) =>
  new PlatformError('NOT_FOUND', 'FunctionNotFound', { functionRid }, 'The query function could not be found.');
