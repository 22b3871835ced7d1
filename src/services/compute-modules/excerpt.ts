// Small guards for what compute-module answers carry (issue 10, items 1 and 13).

/** An input value as an error may quote it: at most 64 characters, else cut with `…` (CONTRACTS §1). */
export const excerpt = (value: string): string => (value.length <= 64 ? value : `${value.slice(0, 63)}…`);

/** Whether a value can be written as JSON (a deep enough value overflows JSON.stringify's stack). */
export function serializes(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}
