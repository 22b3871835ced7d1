// Imports in src/ run one way (docs/architecture.md, "Which way imports run"): between the places of the layout
// (a top-level file, a folder of src/, a service's folder) no import runs back up, so no two places import each
// other, directly or around a loop. A loop here names the imports that close it; the fix is to move the shared
// piece down (a type or constant into the lower place) or to pass it in, not to hide the import.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** The place a file belongs to: `src/services/<name>/`, another folder of src/, or the file itself. */
function placeOf(file: string): string {
  const parts = relative(ROOT, file).split('/');
  if (parts[1] === 'services') return parts.length > 3 ? `${parts.slice(0, 3).join('/')}/` : parts.join('/');
  if (parts.length > 2) return `${parts.slice(0, 2).join('/')}/`;
  return parts.join('/');
}

/** Every relative import of a file (static, dynamic, type-only and re-exports), as the files it names. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => normalize(join(dirname(file), name)).replace(/\.js$/, '.ts'));
}

/** The place graph: for each pair of places, the file imports that draw the arrow. */
function placeGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of sourceFiles(SRC)) {
    const from = placeOf(file);
    const arrows = graph.get(from) ?? new Map<string, string[]>();
    graph.set(from, arrows);
    for (const target of importsOf(file)) {
      const to = placeOf(target);
      if (to === from) continue;
      arrows.set(to, [...(arrows.get(to) ?? []), `${relative(ROOT, file)} -> ${relative(ROOT, target)}`]);
    }
  }
  return graph;
}

/** The loops of the graph: its strongly connected components of more than one place (Tarjan's algorithm). */
function loopsOf(graph: Map<string, Map<string, string[]>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (place: string) => {
    index.set(place, next);
    low.set(place, next++);
    stack.push(place);
    onStack.add(place);
    for (const to of graph.get(place)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(place, Math.min(low.get(place)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(place, Math.min(low.get(place)!, index.get(to)!));
    }
    if (low.get(place) === index.get(place)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== place);
      if (component.length > 1) loops.push(component.sort());
    }
  };
  for (const place of graph.keys()) if (!index.has(place)) visit(place);
  return loops;
}

describe('import direction in src/', () => {
  const graph = placeGraph();

  it('reads the layout: the services, the folders and the entry files are places with arrows', () => {
    expect(graph.has('src/services/compute-modules/')).toBe(true);
    expect(graph.get('src/services/functions/')?.has('src/services/compute-modules/')).toBe(true);
    expect(graph.get('src/app.ts')?.has('src/http/')).toBe(true);
  });

  it('finds a loop when one exists (the checker itself)', () => {
    const looped = new Map([
      ['a', new Map([['b', ['a.ts -> b.ts']]])],
      ['b', new Map([['a', ['b.ts -> a.ts']]])],
      ['c', new Map([['a', ['c.ts -> a.ts']]])],
    ]);
    expect(loopsOf(looped)).toEqual([['a', 'b']]);
  });

  it('has no two places that import each other, directly or around a loop', () => {
    const described = loopsOf(graph).map((loop) => loop.flatMap((from) => loop.flatMap((to) => graph.get(from)?.get(to) ?? [])));
    expect(described).toEqual([]);
  });
});
