// What keeps the package from a clean `npm publish` (scripts/check-publish.ts; test/package/publish.test.ts).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Manifest {
  name?: string;
  version?: string;
  private?: boolean;
  license?: string;
  repository?: { url?: string } | string;
  files?: string[];
  exports?: Record<string, unknown>;
  engines?: { node?: string };
  bin?: Record<string, string>;
}

export function publishProblems(root: string): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
  const problems: string[] = [];
  if (pkg.private) problems.push('package.json: `private: true` keeps it off a registry');
  if (!pkg.name || !/^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/.test(pkg.name)) problems.push('package.json: no valid `name`');
  if (!pkg.version) problems.push('package.json: no `version`');
  if (!pkg.license) problems.push('package.json: no `license`');
  if (!existsSync(join(root, 'LICENSE'))) problems.push('no LICENSE file');
  const repository = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  if (!repository) problems.push('package.json: no `repository`');
  if (!pkg.files?.includes('dist/')) problems.push('package.json: `files` does not list dist/');
  if (!pkg.files?.includes('CHANGELOG.md')) problems.push('package.json: `files` does not list CHANGELOG.md');
  if (!pkg.exports?.['.']) problems.push('package.json: no `exports["."]`');
  if (!pkg.engines?.node) problems.push('package.json: no `engines.node`');
  for (const [command, file] of Object.entries(pkg.bin ?? {})) {
    if (file.startsWith('./')) problems.push(`package.json: bin ${command} starts with ./ (npm rewrites it and warns)`);
  }
  const changelog = existsSync(join(root, 'CHANGELOG.md')) ? readFileSync(join(root, 'CHANGELOG.md'), 'utf8') : '';
  if (!changelog) problems.push('no CHANGELOG.md');
  else if (pkg.version && !changelog.includes(`## ${pkg.version}`)) problems.push(`CHANGELOG.md has no "## ${pkg.version}" section`);
  return problems;
}
