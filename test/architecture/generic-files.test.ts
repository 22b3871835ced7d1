// The generic parts name no service (docs/architecture.md, "Adding an API"): the app, the seed loader, the HTTP
// layer, the generic control routes and the dashboard's own files read the service list and what each service
// declares. Comments may point at a service's file; code, strings and markup may not name one.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SERVICES } from '../../src/services/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GENERIC = ['src/app.ts', 'src/seed', 'src/http', 'src/services/control', 'src/ui'];

function filesUnder(path: string): string[] {
  const full = join(ROOT, path);
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full).flatMap((name) => filesUnder(join(path, name)));
}

/** The text without comments (block, line and HTML), so that only code, strings and markup are judged. */
const withoutComments = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|\s)\/\/.*$/gm, '$1')
    .replace(/<!--[\s\S]*?-->/g, '');

// `oauth` is also the name of an error envelope (the HTTP layer renders refusals in it), so it is left out.
const NAMES = SERVICES.map((s) => s.name).filter((name) => name !== 'control' && name !== 'oauth');
const PANEL_IDS = SERVICES.flatMap((s) => (s.backstage?.panels ?? []).map((p) => p.id));

function mentions(text: string, word: string): boolean {
  return new RegExp(`(^|[^A-Za-z0-9_-])${word.replace(/-/g, '\\-')}([^A-Za-z0-9_-]|$)`, 'i').test(text);
}

describe('generic files', () => {
  const files = GENERIC.flatMap(filesUnder).filter((f) => /\.(ts|js|html)$/.test(f));

  it('are found (the check reads something)', () => {
    expect(files.length).toBeGreaterThan(30);
    expect(NAMES).toContain('datasets');
    expect(PANEL_IDS).toContain('runtimes');
  });

  it('name no service, and the dashboard no service panel', () => {
    const found: string[] = [];
    for (const file of files) {
      const code = withoutComments(readFileSync(file, 'utf8'));
      for (const name of NAMES) if (mentions(code, name)) found.push(`${relative(ROOT, file)}: ${name}`);
      if (file.includes('/src/ui/'))
        for (const id of PANEL_IDS) if (mentions(code, `'${id}'`) || mentions(code, `"${id}"`)) found.push(`${relative(ROOT, file)}: panel ${id}`);
    }
    expect(found).toEqual([]);
  });

  it('would see a service named in code', () => {
    expect(mentions(withoutComments("const x = '/api/v2/datasets/'; // fine"), 'datasets')).toBe(true);
    expect(mentions(withoutComments('// the datasets service\nconst y = 1;'), 'datasets')).toBe(false);
  });
});
