// A CSV read of Parquet files converted by two table workers at once (docs/datasets.md, "Parquet to CSV in two
// workers"): writing the CSV text costs several times the decoding, so one worker (the lead) decodes the files
// and hands some of its batches to a second (the helper) that only writes their text (csv-share.ts). The lead
// tells, in its own answer's order, where the helper's next chunk goes; this thread sends them so. Each worker
// sends at most its window of chunks ahead, and the lead hands over at most a few batches the helper has not
// written yet (converting the rest itself), which bounds the memory held; a failure surfaces where it was in the
// answer's order, after the rows before it.
import { MessageChannel, type Worker } from 'node:worker_threads';
import { csvField } from './column-text.js';
import { planColumns, tabularFormat, TableReadError, type ByteSource } from './read-table.js';
import type { FromWorker, ReadJob, ToWorker } from './worker-protocol.js';
import { discard, release, spawnHelper } from './worker-threads.js';
import { HELPER_TURN, startRun, type RunItem } from './worker-run.js';

/** Whether a read may be split: CSV out, every row, and every file it reads a Parquet file. */
export function shareable(job: ReadJob): boolean {
  const tabular = job.files.filter((f) => f.blobId && tabularFormat(f.path));
  return job.format === 'CSV' && job.rowLimit === undefined && !job.fault && tabular.length > 0 && tabular.every((f) => tabularFormat(f.path) === 'parquet');
}

/** A helper being made (prepareHelper): at most one at a time. */
let preparing = false;

/**
 * After a split-able read that found no idle helper: a new worker (while there is room) warms its CSV writers
 * (text-warmup.ts) and goes idle in the pool, where the next such read finds it. Made after the read, not during
 * it: a helper started cold inside a read cost more CPU and memory than it saved there.
 */
export function prepareHelper(): void {
  if (preparing) return;
  const worker = spawnHelper();
  if (!worker) return;
  preparing = true;
  let done = false;
  const finish = (ok: boolean) => {
    if (done) return;
    done = true;
    preparing = false;
    worker.off('message', onMessage);
    worker.off('exit', onExit);
    if (ok) {
      splitStats.helpers += 1;
      release(worker);
    } else discard(worker);
  };
  const onMessage = (message: FromWorker) => {
    if (message.kind === 'text-warmed') finish(true);
  };
  const onExit = () => finish(false);
  worker.on('message', onMessage);
  worker.on('exit', onExit);
  worker.postMessage({ kind: 'warm-text' } satisfies ToWorker);
}

/** Helpers made, split reads begun, and chunks the helpers wrote: what the tests check the split by. */
export const splitStats = { helpers: 0, reads: 0, helperChunks: 0 };

const disagree = () => new TableReadError('the table could not be read: its two reader threads disagree on its rows');

/** The read in a lead worker (given `job`, the module included where needed) and a helper, sent in the rows' order. */
export async function* splitRead(job: ReadJob, blobs: ByteSource, leadWorker: Worker, helperWorker: Worker): AsyncGenerator<Buffer> {
  splitStats.reads += 1;
  const { port1, port2 } = new MessageChannel();
  const lead = startRun(leadWorker, { ...job, share: 'lead', port: port1 }, blobs, [port1], helperWorker);
  const { parquetModule: _module, ...plain } = job;
  const helper = startRun(helperWorker, { ...plain, share: 'helper', port: port2 }, blobs, [port2], leadWorker);
  const columns = planColumns(job.schema, job.columns);
  // The header goes out with the first rows, so that a failure in the first batch comes before any byte.
  let header: Buffer | undefined = Array.isArray(columns) ? Buffer.from(`${columns.map((c) => csvField(c.name)).join(',')}\n`) : undefined;
  const take = (item: RunItem): Buffer | typeof HELPER_TURN | null => {
    if (item instanceof Error) throw item;
    return item;
  };
  try {
    for (;;) {
      const item = take(await lead.next());
      if (item === null) {
        // Every batch handed over was taken at its turn: the helper has nothing left and ends too.
        if (take(await helper.next()) !== null) throw disagree();
        break;
      }
      const run = item === HELPER_TURN ? helper : lead;
      const bytes = item === HELPER_TURN ? take(await helper.next()) : item;
      if (!Buffer.isBuffer(bytes)) throw disagree();
      if (run === helper) splitStats.helperChunks += 1;
      if (bytes.length > 0) {
        yield header ? Buffer.concat([header, bytes]) : bytes;
        header = undefined;
      }
      run.ack();
    }
    // No rows: the header alone (a bad column list fails in the workers, before this).
    if (header) yield header;
  } finally {
    await Promise.all([lead.close(), helper.close()]);
  }
}
