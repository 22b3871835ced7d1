// The current state as a seed document (docs/contracts.md §7): what `--config` (or `--import`) accepts, so that
// a state arranged by a test suite or by hand can be saved and started again. Each service's seed codec writes
// its own key. Entities only, no settings (port, host, tokens of the service itself), so an export never moves a
// second instance's port. Left out on purpose: issued tokens, codes and jobs (they belong to a run), connection
// secret values and domain auth (no secret value leaves the service). Other secrets (client secrets, module auth
// tokens) only when asked; the document names each one it left out, and an import refuses it unless told.
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'yaml';
import type { AnySeedCodec } from './codec.js';
import type { Store } from '../store/store.js';

export interface StateDocument {
  platform: Record<string, unknown>;
  /** The paths of the secrets left out (docs/contracts.md §7); an import refuses them unless told otherwise. */
  secretsOmitted?: string[];
  /**
   * What a seed cannot hold and the export left out (a dataset file over 64 KiB exported over HTTP, a reference
   * to an object gone), one line each, so that the document itself says it is not the whole state. An import
   * ignores it.
   */
  leftOut?: string[];
}

export interface ExportOptions {
  /** Write secret values (`?secrets=include`, `--export-on-exit`); else each one left out is named. */
  secrets?: boolean;
  /** Receives what a seed cannot hold and the export leaves out, one line each, for the caller to log. */
  dropped?: string[];
  /** Where large bytes (dataset files) go, beside an export file (docs/datasets.md, "Seed"). */
  beside?: BesideFolder;
}

export interface BesideFolder {
  /** Writes the bytes as `name` (a relative path); answers the path relative to the export file's folder. */
  write(name: string, bytes: AsyncIterable<Uint8Array>): Promise<string>;
  /** The document is written: the bytes take the place of the last export's. */
  commit(): Promise<void>;
  /** The export failed: its bytes go, the last export's stay. */
  discard(): Promise<void>;
}

/**
 * The folder `<file>.files/` beside an export file. Bytes are written into a fresh folder next to it and swapped
 * in only once the document is written, so that a failed export leaves the last one whole, and no file of an
 * older export (one since deleted) stays behind.
 */
export function besideFolder(file: string): BesideFolder {
  const name = `${basename(file)}.files`;
  const final = join(dirname(file), name);
  const staging = `${final}.partial-${process.pid}`;
  let written = false;
  return {
    async write(relative, bytes) {
      if (!written) await rm(staging, { recursive: true, force: true });
      written = true;
      const target = join(staging, relative);
      await mkdir(dirname(target), { recursive: true });
      await pipeline(Readable.from(bytes), createWriteStream(target, { mode: 0o600 }));
      return join(name, relative);
    },
    async commit() {
      // Another process exporting to the same file may put its folder back between the two steps: try again.
      for (let attempt = 0; ; attempt++) {
        await rm(final, { recursive: true, force: true });
        if (!written) return;
        try {
          return await rename(staging, final);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (attempt >= 4 || (code !== 'ENOTEMPTY' && code !== 'EEXIST')) throw err;
        }
      }
    },
    discard: () => rm(staging, { recursive: true, force: true }),
  };
}

export async function exportState(store: Store, codecs: readonly AnySeedCodec[], options: ExportOptions = {}): Promise<StateDocument> {
  const platform: Record<string, unknown> = {};
  const secretsOmitted: string[] = [];
  const leftOut: string[] = [];
  const context = {
    store,
    secrets: options.secrets === true,
    omitted: (path: string) => void secretsOmitted.push(path),
    dropped: (line: string) => {
      leftOut.push(line);
      options.dropped?.push(line);
    },
    ...(options.beside === undefined ? {} : { writeBeside: options.beside.write }),
  };
  for (const codec of codecs) platform[codec.key] = await codec.export(context);
  return { platform, ...(secretsOmitted.length ? { secretsOmitted } : {}), ...(leftOut.length ? { leftOut } : {}) };
}

const HEADER = '# platform-emulator state export: start with `platform-emulator --config <this file>` or `--import <this file>`.\n';

/** YAML names the omitted secrets in a comment line (docs/contracts.md §7) that an import reads back. */
export const stateAsYaml = ({ platform, secretsOmitted, leftOut }: StateDocument): string =>
  HEADER +
  (secretsOmitted ? `${SECRETS_OMITTED}${secretsOmitted.join(', ')}\n` : '') +
  (leftOut ?? []).map((line) => `${LEFT_OUT}${line.replace(/[\r\n]+/g, ' ')}\n`).join('') +
  stringify({ platform });

/** A comment line of a YAML export naming one thing it left out. */
export const LEFT_OUT = '# left out: ';

/** The comment line of a YAML export that names the secrets it left out. */
export const SECRETS_OMITTED = '# secrets omitted: ';
export const stateAsJson = (doc: StateDocument): string => `${JSON.stringify(doc, null, 2)}\n`;
