// Issue 25: the package is publishable. `private: true` kept it off a registry; the fields a registry and an
// installer read (name, license, repository, files, exports, engines) and a CHANGELOG entry for the version must
// be there. The dry run itself is checked by `npm run check:publish` in .ci/run (it needs the build).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { publishProblems } from '../../scripts/publish-problems.js';

describe('the publishable package', () => {
  it('has every field a clean npm publish needs, and a CHANGELOG entry for its version', () => {
    expect(publishProblems(fileURLToPath(new URL('../..', import.meta.url)))).toEqual([]);
  });
});
