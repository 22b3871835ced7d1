// The connectivity failures, with the errorName, parameters and errorDescription of the platform SDK's own
// error types (@osdk/foundry.connectivity), so that an app's error handling is exercised as it will be for real.
import { PlatformError } from '../../errors.js';

export const connectionNotFound = (connectionRid: string) =>
  new PlatformError('NOT_FOUND', 'ConnectionNotFound', { connectionRid }, 'The given Connection could not be found.');

export const connectionTypeNotSupported = (connectionType: string) =>
  new PlatformError('INVALID_ARGUMENT', 'ConnectionTypeNotSupported', { connectionType }, 'The specified connection is not yet supported in the Platform API.');

export const domainMustUseHttpsWithAuthentication = () =>
  new PlatformError('INVALID_ARGUMENT', 'DomainMustUseHttpsWithAuthentication', {}, 'The domain must use HTTPS if authentication is required.');

export const unknownWorkerCannotBeUsed = () =>
  new PlatformError(
    'INVALID_ARGUMENT',
    'UnknownWorkerCannotBeUsedForCreatingOrUpdatingConnections',
    {},
    'The UnknownWorker cannot be used for creating or updating connections. Please use the Foundry worker instead.',
  );

export const encryptedPropertyMustBePlaintext = (propertyName: string) =>
  new PlatformError(
    'INVALID_ARGUMENT',
    'EncryptedPropertyMustBeSpecifiedAsPlaintextValue',
    { propertyName },
    'The encrypted property must be specified as a plaintext value.',
  );

export const additionalSecretsMustBePlaintextMap = () =>
  new PlatformError(
    'INVALID_ARGUMENT',
    'AdditionalSecretsMustBeSpecifiedAsPlaintextValueMap',
    {},
    'The additional secrets must be specified as a plaintext value map.',
  );

/** The host is echoed without any user-info part: `https://user:password@host` must not put a password in an error. */
export const hostNameCannotHaveProtocolOrPort = (hostName: string) =>
  new PlatformError(
    'INVALID_ARGUMENT',
    'HostNameCannotHaveProtocolOrPort',
    { hostName: hostName.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^@/?#]*@/i, '$1') },
    'The hostname should not include a protocol (e.g., https://) or port number (e.g., :443).',
  );

export const propertyCannotBeBlank = (propertyName: string) =>
  new PlatformError('INVALID_ARGUMENT', 'PropertyCannotBeBlank', { propertyName }, 'The specified property cannot be blank.');

export const propertyCannotBeEmpty = (propertyName: string) =>
  new PlatformError('INVALID_ARGUMENT', 'PropertyCannotBeEmpty', { propertyName }, 'The specified property cannot be empty.');
