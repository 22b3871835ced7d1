// `--import FILE`: a state export (or any seed document) laid over the `--config` seed. Each service's codec
// merges its own key (entities of the import replace those of the config with the same key); settings (port,
// host, tokens, limits) stay the config's. The result is the seed a reset goes back to.
import type { Seed } from './schema.js';
import type { AnySeedCodec } from './codec.js';

export function mergeSeeds(base: Seed, imported: Seed, codecs: readonly AnySeedCodec[]): Seed {
  const services: Record<string, unknown> = {};
  for (const codec of codecs) {
    const mine = base[codec.key] as never;
    const theirs = imported[codec.key] as never;
    services[codec.key] = codec.merge ? codec.merge(mine, theirs) : theirs;
  }
  return { ...base, ...services };
}
