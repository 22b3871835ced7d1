// A table worker's reads (docs/datasets.md, "Table reads off the event loop"; loaded by table-worker.ts at the
// worker's first message about one): one read at a time with the same pipeline as an in-thread read
// (read-table.ts), over file bytes the main thread sends on request, and the encoded answer sent back with
// backpressure. A failure is reported, never thrown out of the thread; a cancel (the client went away) stops the
// read at its next await.
import { Readable } from 'node:stream';
import type { ByteRange } from '../../../blobs/index.js';
import { planColumns, tableBytes, TableReadError, type ByteSource, type FitMemory } from './read-table.js';
import { csvHelper, csvLead, HELPER_TURN } from './csv-share.js';
import { transferable } from './handover.js';
import { parquetWasm, useParquetModule } from './parquet-wasm.js';
import { warmRead } from './warm-read.js';
import { warmText } from './text-warmup.js';
import { OUT_WINDOW, type FromWorker, type ReadJob, type ToWorker } from './worker-protocol.js';

class Cancelled extends Error {}

let post: (message: FromWorker, transfer?: ArrayBuffer[]) => void = () => undefined;

/** One read: its open byte streams' pending replies, its credits, whether it was cancelled. */
class Run {
  cancelled = false;
  private credits: number;
  private creditWaiter: (() => void) | undefined;
  private replies = new Map<number, { resolve: (m: ToWorker) => void; reject: (e: Error) => void }>();
  private nextStream = 1;

  constructor(private readonly job: ReadJob) {
    this.credits = job.window ?? OUT_WINDOW;
  }

  onMessage(message: ToWorker): void {
    if (message.kind === 'ack') {
      this.credits += 1;
      this.creditWaiter?.();
      this.creditWaiter = undefined;
    } else if (message.kind === 'cancel') {
      this.cancelled = true;
      for (const reply of this.replies.values()) reply.reject(new Cancelled());
      this.replies.clear();
      this.creditWaiter?.();
      this.creditWaiter = undefined;
    } else if (message.kind === 'opened' || message.kind === 'chunk' || message.kind === 'bytes') {
      const reply = this.replies.get(message.stream);
      this.replies.delete(message.stream);
      reply?.resolve(message);
    }
  }

  private ask(stream: number, message: FromWorker): Promise<ToWorker> {
    if (this.cancelled) return Promise.reject(new Cancelled());
    return new Promise((resolve, reject) => {
      this.replies.set(stream, { resolve, reject });
      post(message);
    });
  }

  /** A file's bytes as a stream, each chunk asked for when the one before was taken. */
  private async open(blobId: string, range?: ByteRange): Promise<Readable | undefined> {
    const stream = this.nextStream++;
    const opened = await this.ask(stream, { kind: 'open', stream, blobId, ...(range ? { range } : {}) });
    if (opened.kind !== 'opened' || !opened.ok) return undefined;
    const chunks = async function* (this: Run): AsyncGenerator<Buffer> {
      let ended = false;
      try {
        for (;;) {
          const next = await this.ask(stream, { kind: 'pull', stream });
          if (next.kind !== 'chunk') continue;
          if (next.error !== undefined) throw new Error(next.error);
          if (next.data === null) {
            ended = true;
            return;
          }
          // Each piece handed on alone, so that it is garbage as soon as the reader is done with it.
          const pieces = next.data;
          while (pieces.length > 0) {
            const piece = pieces.shift()!;
            yield Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
          }
        }
      } finally {
        if (!ended && !this.cancelled) post({ kind: 'close', stream });
      }
    }.call(this);
    return Readable.from(chunks, { objectMode: false });
  }

  /** A byte range in one message: the main thread copies it once into a buffer it transfers here. */
  private async range(blobId: string, start: number, end: number): Promise<ArrayBuffer | undefined> {
    const stream = this.nextStream++;
    const reply = await this.ask(stream, { kind: 'range', stream, blobId, start, end });
    if (reply.kind !== 'bytes') return undefined;
    if (reply.error !== undefined) throw new Error(reply.error);
    return reply.data ?? undefined;
  }

  async execute(): Promise<void> {
    const { job } = this;
    try {
      if (job.fault === 'exit') process.exit(3);
      if (job.fault === 'throw') throw new Error('fault injected by a test');
      if (job.parquetModule) useParquetModule(job.parquetModule);
      const columns = planColumns(job.schema, job.columns);
      if (!Array.isArray(columns)) throw new TableReadError(columns.problem);
      const known = new Set(job.fitted);
      const fits: FitMemory = { has: (key) => known.has(key), remember: (key) => post({ kind: 'fitted', key }) };
      const source: ByteSource = { open: (blobId, range) => this.open(blobId, range), range: (blobId, start, end) => this.range(blobId, start, end) };
      // A split CSV read's lead or helper (csv-share.ts), or a read of its own.
      const bytes =
        job.share === 'lead' && job.port
          ? csvLead(job.files, source, columns, job.port)
          : job.share === 'helper' && job.port
            ? csvHelper(columns, job.port)
            : tableBytes(job.format, job.files, source, columns, job.schema, job.rowLimit, fits);
      for await (const buffer of bytes) {
        if (this.cancelled) throw new Cancelled();
        if (buffer === HELPER_TURN) {
          post({ kind: 'helper' });
          continue;
        }
        // A helper sends one chunk per batch handed to it, even an empty one: the main thread counts them.
        if (buffer.length === 0 && job.share !== 'helper') continue;
        // Sent by transfer: a buffer that owns its whole memory (or was given away: handover.ts) goes as it is,
        // others (pooled, views) are copied.
        const data = transferable(buffer) ? buffer : new Uint8Array(buffer);
        post({ kind: 'out', data }, [data.buffer as ArrayBuffer]);
        this.credits -= 1;
        while (this.credits <= 0 && !this.cancelled) await new Promise<void>((resolve) => (this.creditWaiter = resolve));
      }
      post(this.cancelled ? { kind: 'cancelled' } : { kind: 'end' });
    } catch (err) {
      if (this.cancelled || err instanceof Cancelled) post({ kind: 'cancelled' });
      else post({ kind: 'fail', message: (err as Error).message ?? String(err), table: err instanceof TableReadError });
    }
  }
}

let current: Run | undefined;
/** The warm-up's reads were stopped by a read: they go on when this thread is idle again. */
let warmLeft = false;

/** Runs the warm-up's reads left (warm-read.ts) until done or a read comes; a failure is reported, not thrown. */
function warmOn(): void {
  warmLeft = false;
  warmRead(() => current !== undefined).then(
    (done) => {
      if (done) post({ kind: 'warm-read' });
      // The read that stopped them may have ended already (its end did not see them stopped).
      else if (current === undefined) warmOn();
      else warmLeft = true;
    },
    (err: unknown) => post({ kind: 'warm-read', error: (err as Error).message ?? String(err) }),
  );
}

/** Messages about reads and warm-ups; `send` answers the main thread. */
export function readMessages(send: typeof post): (message: ToWorker) => void {
  post = send;
  return onMessage;
}

function onMessage(message: ToWorker): void {
  if (message.kind === 'job') {
    if (message.job.fault && !process.env.VITEST) delete message.job.fault;
    const run = new Run(message.job);
    current = run;
    void run.execute().finally(() => {
      if (current === run) current = undefined;
      if (warmLeft && current === undefined) warmOn();
    });
  } else if (message.kind === 'warm') {
    // Sent only to an idle worker (parquet-warmup.ts): the instance is made now; then, the worker already back in
    // the pool, its read path is run over files of its own (warm-read.ts), stopped as soon as a read arrives and
    // resumed after it. A failure there is left to the real read, which names it.
    useParquetModule(message.module);
    parquetWasm().then(
      () => {
        post({ kind: 'warmed' });
        warmOn();
      },
      (err: unknown) => post({ kind: 'warmed', error: (err as Error).message ?? String(err) }),
    );
  } else if (message.kind === 'warm-text') {
    // A failure here is left to the first split read, which meets the same code.
    try {
      warmText();
    } catch {
      // Nothing to report.
    }
    post({ kind: 'text-warmed' });
  } else current?.onMessage(message);
}
