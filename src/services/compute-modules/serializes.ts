// What compute-module answers carry must serialize (issue 10, item 1).

/** Whether a value can be written as JSON (a deep enough value overflows JSON.stringify's stack). */
export function serializes(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}
