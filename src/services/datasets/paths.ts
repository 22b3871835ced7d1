// File paths in a dataset (docs/datasets.md, "Paths"): relative, `/`-separated, never empty, no empty, `.` or
// `..` segment, no NUL. Checked the same way for routes and the seed.

/** What is wrong with `path`, or undefined when it is a valid dataset file path. */
export function pathProblem(path: string): string | undefined {
  if (path.length === 0) return 'the path is empty';
  if (path.length > 1024) return 'the path is longer than 1024 characters';
  if (path.includes('\u0000')) return 'the path contains a NUL character';
  if (path.startsWith('/')) return 'the path starts with "/"';
  for (const segment of path.split('/')) {
    if (segment === '') return 'the path has an empty segment';
    if (segment === '.' || segment === '..') return `the path has a "${segment}" segment`;
  }
  return undefined;
}
