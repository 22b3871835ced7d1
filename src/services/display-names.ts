// Resource display names, as the platform's filesystem takes them for folders, projects and datasets alike
// (docs/directory.md, "The tree"): not blank, not `.` or `..`, no `/`, at most 700 characters. A dataset's name
// is a path segment of its folder, so a name outside these rules would make it unreachable by path.
import { invalidArgument } from '../errors.js';

export const MAX_DISPLAY_NAME_LENGTH = 700;

/** What is wrong with `name` as a display name ("is blank", ...), or undefined when nothing is. */
export function displayNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'is blank';
  if (name === '.' || name === '..') return 'is "." or ".."';
  if (name.includes('/')) return 'holds a "/"';
  if (name.length > MAX_DISPLAY_NAME_LENGTH) return `is ${name.length} characters long (at most ${MAX_DISPLAY_NAME_LENGTH})`;
  return undefined;
}

/** Refuses a name outside the rules with InvalidDisplayName (400). */
export function checkDisplayName(name: string): void {
  const problem = displayNameProblem(name);
  if (problem !== undefined)
    throw invalidArgument('InvalidDisplayName', { displayName: name }).because(
      `the name ${problem}: a name is not blank, not "." or "..", holds no "/" and is at most ${MAX_DISPLAY_NAME_LENGTH} characters`,
    );
}
