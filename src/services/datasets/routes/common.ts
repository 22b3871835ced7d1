// What every datasets route file shares: scopes, the path prefix, and how a file path is taken from the URL.
import { invalidFilePath } from '../errors.js';
import { pathProblem } from '../paths.js';
import { datasetsSubject } from './refusal-subject.js';

export const READ = 'api:datasets-read';
export const WRITE = 'api:datasets-write';
export const V2 = '/api/v2/datasets';
// Every datasets route's refusals name the dataset, branch and transaction the request names (refusal-subject.ts).
export const readAuth = { auth: { kind: 'bearer', scope: READ }, refusalSubject: datasetsSubject } as const;
export const writeAuth = { auth: { kind: 'bearer', scope: WRITE }, refusalSubject: datasetsSubject } as const;

/**
 * The file path of `/api/v2/datasets/{rid}/files/{path}[/suffix]`, taken from the raw request target so that
 * an encoded `%2F` and a plain `/` both work: the part after `/files/`, less the suffix (`/content`,
 * `/upload`) when it is there literally, percent-decoded once (docs/datasets.md, "Paths").
 */
export function filePathOf(rawUrl: string, suffix?: string): { path: string; suffixed: boolean } {
  const q = rawUrl.indexOf('?');
  const target = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const at = target.indexOf('/files/');
  let raw = at < 0 ? '' : target.slice(at + '/files/'.length);
  let suffixed = false;
  if (suffix !== undefined && raw.endsWith(`/${suffix}`)) {
    raw = raw.slice(0, -suffix.length - 1);
    suffixed = true;
  }
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    throw invalidFilePath(raw.slice(0, 64), 'the file path has a malformed percent-escape');
  }
  const problem = pathProblem(path);
  if (problem) throw invalidFilePath(path, problem);
  return { path, suffixed };
}

/**
 * Whether the request target ends in `/` before its query: `GET .../files/` is a client asking for the file
 * with an empty path (or the transaction or branch with an empty name), which the framework would otherwise
 * route to the listing (trailing slashes are ignored).
 */
export function namesEmptyItem(rawUrl: string): boolean {
  const q = rawUrl.indexOf('?');
  return (q < 0 ? rawUrl : rawUrl.slice(0, q)).endsWith('/');
}
