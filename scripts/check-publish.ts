// `npm run check:publish` (run by .ci/run): the package is publishable and `npm publish --dry-run` is clean.
// The fields a registry page and an installer read must be there, and the dry run must warn about nothing but
// the missing login (a dry run needs none). Builds nothing: run after `npm run build` (`prepare` is skipped).
import { spawnSync } from 'node:child_process';
import { publishProblems } from './publish-problems.js';

const problems = publishProblems(process.cwd());
const dry = spawnSync('npm', ['publish', '--dry-run', '--ignore-scripts'], { encoding: 'utf8', env: { ...process.env, NO_UPDATE_NOTIFIER: '1' } });
const output = `${dry.stdout}\n${dry.stderr}`;
if (dry.status !== 0) problems.push(`npm publish --dry-run exited ${dry.status}:\n${output}`);
for (const line of output.split('\n')) {
  // A dry run without a login says so; anything else npm warns about (auto-corrected fields, ...) is a problem.
  if (/^npm warn/i.test(line) && !/logged in|EBADENGINE|^npm warn\s*$/i.test(line)) problems.push(`npm: ${line}`);
}
if (problems.length > 0) {
  console.error(`publish check: FAILED\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log('publish check: npm publish --dry-run is clean');
