// Derived property failures, with the platform SDK's errorName and parameters (@osdk/foundry.ontologies
// InvalidDerivedPropertyDefinition, DerivedPropertyApiNamesNotUnique).
import { PlatformError, quote } from '../../../errors.js';

export const invalidDerivedProperty = (objectType: string, derivedProperty: string, why: string) =>
  new PlatformError(
    'INVALID_ARGUMENT',
    'InvalidDerivedPropertyDefinition',
    { objectType, derivedProperty },
    'Derived property definition was invalid due to shape of query or type checking.',
  ).because(`Derived property ${quote(derivedProperty)} on ${objectType}: ${why}.`);

export const derivedNamesNotUnique = (derivedPropertyApiNames: string[]) =>
  new PlatformError(
    'INVALID_ARGUMENT',
    'DerivedPropertyApiNamesNotUnique',
    { derivedPropertyApiNames },
    'At least one of the requested derived property API names already exist on the object set.',
  ).because(`Derived properties ${derivedPropertyApiNames.map((n) => quote(n)).join(', ')} have the names of properties the objects already have.`);
