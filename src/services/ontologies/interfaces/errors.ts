// Interface failures, with the platform SDK's errorName and parameters (@osdk/foundry.ontologies).
import { PlatformError, quote } from '../../../errors.js';
import type { InterfaceDef } from './model.js';

export const interfacePropertyNotFound = (def: InterfaceDef, interfaceProperty: string) =>
  new PlatformError(
    'NOT_FOUND',
    'InterfacePropertyNotFound',
    { interfaceType: def.apiName, interfaceProperty },
    'The requested interface property was not found on the interface type.',
  ).because(`Interface ${def.apiName} has no property ${quote(interfaceProperty)}; its properties are ${[...def.properties.keys()].join(', ') || 'none'}.`);
