// The ontology failures, with the errorName, parameters and errorDescription of the platform SDK's own error
// types (@osdk/foundry.ontologies).
import { PlatformError, quote } from '../../errors.js';

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

// Objects, links, object sets, actions (docs/contracts.md §9): the SDK's errorName, parameters and errorDescription.
const sdk = (code: 'NOT_FOUND' | 'INVALID_ARGUMENT' | 'CONFLICT', name: string, description: string) => (parameters: Record<string, unknown>) =>
  new PlatformError(code, name, parameters, description);

export const objectTypeNotFound = (objectType: string) =>
  sdk('NOT_FOUND', 'ObjectTypeNotFound', 'The requested object type is not found, or the client token does not have access to it.')({ objectType });
export const objectNotFound = (objectType: string, primaryKey: unknown) =>
  sdk('NOT_FOUND', 'ObjectNotFound', 'The requested object is not found, or the client token does not have access to it.')({ objectType, primaryKey });
export const linkTypeNotFound = (objectType: string, linkType: string) =>
  sdk('NOT_FOUND', 'LinkTypeNotFound', 'The link type is not found, or the user does not have access to it.')({ objectType, linkType });
export const linkedObjectNotFound = (linkType: string, linkedObjectType: string, linkedObjectPrimaryKey: unknown) =>
  sdk(
    'NOT_FOUND',
    'LinkedObjectNotFound',
    'The linked object with the given primary key is not found, or the user does not have access to it.',
  )({ linkType, linkedObjectType, linkedObjectPrimaryKey });
export const actionTypeNotFound = (actionType: string) =>
  sdk('NOT_FOUND', 'ActionTypeNotFound', 'The action type is not found, or the user does not have access to it.')({ actionType });
export const propertiesNotFound = (objectType: string, properties: string[]) =>
  sdk('NOT_FOUND', 'PropertiesNotFound', 'The requested properties are not found on the object type.')({ objectType, properties });
export const queryVersionNotFound = (apiName: string, version: string) =>
  sdk('NOT_FOUND', 'QueryVersionNotFound', 'The query could not be found at the provided version.')({ apiName, version });
export const unknownParameter = (unknownParameters: string[], expectedParameters: string[]) =>
  sdk(
    'INVALID_ARGUMENT',
    'UnknownParameter',
    'The provided parameters were not found. Please look at the knownParameters field to see which ones are available.',
  )({ unknownParameters, expectedParameters });
export const missingParameter = (parameters: string[]) =>
  sdk(
    'INVALID_ARGUMENT',
    'MissingParameter',
    'Required parameters are missing. Please look at the parameters field to see which required parameters are missing from the request.',
  )({ parameters });
export const invalidParameterValue = (parameterId: string, parameterDataType: unknown, parameterValue: unknown) =>
  sdk(
    'INVALID_ARGUMENT',
    'InvalidParameterValue',
    'The value of the given parameter is invalid. See the documentation of DataValue for details on how parameters are represented.',
  )({
    parameterBaseType: (parameterDataType as { type?: string }).type,
    parameterDataType,
    parameterId,
    parameterValue,
  });
export const parametersNotFound = (actionType: string, unknownParameterIds: string[], configuredParameterIds: string[]) =>
  sdk(
    'INVALID_ARGUMENT',
    'ParametersNotFound',
    'The provided parameter ID was not found for the action. Please look at the configuredParameterIds field to see which ones are available.',
  )({ actionType, unknownParameterIds, configuredParameterIds });
export const actionValidationFailed = (actionType: string) =>
  sdk(
    'INVALID_ARGUMENT',
    'ActionValidationFailed',
    'The validation failed for the given action parameters. Please use the validateAction endpoint for more details.',
  )({ actionType });
export const invalidPropertyFilterValue = (property: string, propertyFilter: string, expectedType: string, propertyFilterValue: unknown) =>
  sdk(
    'INVALID_ARGUMENT',
    'InvalidPropertyFilterValue',
    `The value of the ${propertyFilter} filter on ${property} is invalid: expected ${expectedType}.`,
  )({ expectedType, propertyFilter, propertyFilterValue, property });
export const invalidPropertyValue = (property: string, propertyBaseType: string, propertyValue: unknown) =>
  sdk(
    'INVALID_ARGUMENT',
    'InvalidPropertyValue',
    'The value of the given property is invalid. See the documentation of PropertyValue for details on how properties are represented.',
  )({ propertyBaseType, property, propertyValue });

/** A clause, object set, aggregation or option the emulator does not evaluate: named, never answered wrongly. */
export const notSupported = (what: string, name: string) =>
  new PlatformError(
    'INVALID_ARGUMENT',
    'NotSupportedByEmulator',
    { [what]: name },
    `The ${what} "${name.length > 64 ? `${name.slice(0, 63)}…` : name}" is not supported by the emulator.`,
  ).because(
    `The emulator does not evaluate the ${what} ${quote(name)} (it would rather refuse than answer wrongly); README "Ontology objects, queries and actions" lists what it supports.`,
  );
export const invalidRequest = (field: string, problem: string) => new PlatformError('INVALID_ARGUMENT', 'InvalidArgument', { field }, `${field}: ${problem}`);
