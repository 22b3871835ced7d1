// The seed keys a list of services owns, in list order: what the loader validates, applySeed applies, an
// import merges and the state export writes. A file of its own so that generic code reads the list it is given
// without importing the list itself.
import type { ServiceModule, AnySeedCodec } from './service-module.js';

export const seedCodecsOf = (services: readonly ServiceModule[]): AnySeedCodec[] => services.flatMap((s) => s.seed ?? []);
