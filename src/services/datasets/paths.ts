// File paths in a dataset (docs/datasets.md, "Paths"): relative, `/`-separated, never empty, no empty, `.` or
// `..` segment, no NUL. Branch names (docs/datasets.md, "Branches"), at most 1024 UTF-8 bytes. Both checked the
// same way for routes and the seed.
import { invalidBranchName, shown } from './errors.js';

const RID_LIKE = /^ri\.|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The longest branch name, in UTF-8 bytes. A branch is named in URLs (`/branches/{name}`, `?branchName=`),
 * percent-encoded at up to 3 characters a byte, and Node answers 431 to a request whose request line and headers
 * pass 16 KiB: a longer name could be created (it comes in a JSON body) but never read, opened or deleted
 * again. 1024 bytes are at most 3072 URL characters, which leaves room for the rest of the URL and the headers
 * (a bearer token, a `transactionRid`).
 */
export const BRANCH_NAME_MAX_BYTES = 1024;

/**
 * Why `name` cannot name a branch, or undefined when it can: empty, a rid or UUID (the routes' branch
 * parameters take those as ids), `.` / `..`, which clients' URL handling folds away so the branch could never be
 * named again, or too long for a URL (above).
 */
export function branchNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'is empty';
  if (name === '.' || name === '..') return 'is a dot segment';
  if (RID_LIKE.test(name)) return 'looks like a rid or a UUID';
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > BRANCH_NAME_MAX_BYTES) return `is ${bytes} bytes long in UTF-8, over the ${BRANCH_NAME_MAX_BYTES} a branch name may take`;
  return undefined;
}

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

/** Refuses a name the API could not take, or no URL could reach again (docs/datasets.md, "Branches"). */
export function checkBranchName(name: string): void {
  const problem = branchNameProblem(name);
  if (problem !== undefined) throw invalidBranchName(name).because(`branch name ${shown(name)} ${problem}`);
}
