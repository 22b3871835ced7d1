// Shared by the journal tests: a log capture, and reading the journal of an app.
export function captureLog(): { write: (line: string) => void; lines: string[]; parsed: () => Array<Record<string, unknown>> } {
  const lines: string[] = [];
  return {
    write: (line: string) => void lines.push(line),
    lines,
    parsed: () =>
      lines
        .flatMap((l) => l.split('\n'))
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
