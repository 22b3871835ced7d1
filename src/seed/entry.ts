// One entry of a service's seed list, as a control route receives it (PUT /_emulate/platform/users/alice): checked
// by that service's own codec exactly as the seed file would be, so a suite can move a config fragment into a
// test as it is. A problem is a 400 naming its field.
import { invalidArgument } from '../errors.js';
import type { SeedCodec } from './codec.js';
import { SeedError, validateSeed } from './load.js';

export function seedEntry<Entry>(codec: SeedCodec<Entry[]>, entry: Record<string, unknown>): Entry {
  const list = codec.key;
  try {
    return (validateSeed({ platform: { [list]: [entry] } }, 'body', [codec])[list] as Entry[])[0]!;
  } catch (err) {
    if (!(err instanceof SeedError)) throw err;
    const problems = err.problems.map((p) => p.replace(`platform.${list}[0].`, '').replace(`platform.${list}[0]`, 'body'));
    const field = problems[0]?.split(':')[0] ?? 'body';
    throw invalidArgument('InvalidArgument', { field }, `Invalid ${list.replace('_', ' ')} entry: ${problems.join('; ')}`.slice(0, 2000)).because(
      `The body is not a valid platform.${list} entry of the seed: ${problems.join('; ')}.`,
    );
  }
}
