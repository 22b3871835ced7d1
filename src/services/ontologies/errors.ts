// The ontology failures, with the errorName, parameters and errorDescription of the platform SDK's own error
// types (@osdk/foundry.ontologies).
import { PlatformError } from '../../errors.js';

/** Parameters name the identifier in the form the caller used: `{ontologyRid}` for a rid, else `{apiName}`. */
export const ontologyNotFound = (identifier: string, byRid: boolean) =>
  new PlatformError(
    'NOT_FOUND',
    'OntologyNotFound',
    byRid ? { ontologyRid: identifier } : { apiName: identifier },
    'The requested Ontology is not found, or the client token does not have access to it.',
  );

export const queryNotFound = (query: string) =>
  new PlatformError('NOT_FOUND', 'QueryNotFound', { query }, 'The query is not found, or the user does not have access to it.');
