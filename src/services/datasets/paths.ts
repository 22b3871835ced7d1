// File paths in a dataset (docs/datasets.md, "Paths"): relative, `/`-separated, never empty, no empty, `.` or
// `..` segment, no NUL. Branch names (docs/datasets.md, "Branches"). Both checked the same way for routes and
// the seed.

const RID_LIKE = /^ri\.|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether `name` cannot name a branch: empty, a rid or UUID (the routes' branch parameters take those as
 * ids), or `.` / `..`, which clients' URL handling folds away so the branch could never be named again.
 */
export const badBranchName = (name: string): boolean => name.trim() === '' || name === '.' || name === '..' || RID_LIKE.test(name);

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
