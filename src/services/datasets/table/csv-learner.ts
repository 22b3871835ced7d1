// A CSV upload learned while it arrives (docs/datasets.md, "CSV files learned at upload"): each chunk the byte
// store keeps is copied, in order, to a table worker lent for it (worker-threads.ts lend), which learns what each
// column's cells are (csv-learn.ts); two chunks are in flight at most, so the worker takes them at its own pace.
// When the upload is stored, its blob gets that profile; a passthrough read whose schema the profile fits then
// sends the file as one known to fit, with no scan. The learning never fails or holds up the upload (where no core
// is spare, its worker's CPU is still taken from it): it stops (nothing learned) when no worker is free, when a
// read wants the worker, and when it would hold too many bytes the store does not keep (PostgreSQL's).
import type { Worker } from 'node:worker_threads';
import { CHUNK_BYTES } from '../../../blobs/index.js';
import { profileFits, type CsvProfile } from './csv-learn.js';
import { fitKey, knownFits } from './read-table.js';
import type { Column } from './columns.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';
import { lend, release, returned, tableWorkers } from './worker-threads.js';

/** Chunks sent that the worker has not learned yet, at most. */
const IN_FLIGHT = 2;
/** Bytes of chunks the store does not keep that the learning may hold while the worker catches up. */
const MAX_HELD_BYTES = 16 * 1024 * 1024;
/** Numbers each learning's messages, so that a worker's late answers to a stopped one are not taken for the next's. */
let sessions = 0;
/** Profiles kept (per instance, by blob: blobs never change); the oldest goes first. */
const PROFILES_MAX = 10_000;

const profiles = new Map<string, CsvProfile>();
/** Blobs whose learning is still catching up after their upload was stored: a read waits for it. */
const catchingUp = new Map<string, Promise<void>>();

/** Uploads learned, not learnable, and learnings stopped before their end (by cause): what the tests check. */
export const learnStats = { learned: 0, notLearnable: 0, stopped: 0, noWorker: 0, held: 0, readWanted: 0 };

export class UploadLearner {
  private worker: Worker | undefined;
  private readonly session = ++sessions;
  private readonly queue: Array<{ chunk: Buffer; kept: boolean }> = [];
  /** Bytes of queued chunks that only this queue holds. */
  private held = 0;
  private inFlight = 0;
  /** Buffers the worker gave back, each carrying the next chunk (at most IN_FLIGHT are ever made). */
  private readonly spare: ArrayBuffer[] = [];
  private done = false;
  /** Stopped before its end (counted by cause in learnStats, not as a file that could not be learned). */
  private stoppedEarly = false;
  /** The blob, once the upload is stored: `learn-end` follows the last chunk. */
  private blobId: string | undefined;
  private answer: ((profile: CsvProfile | undefined) => void) | undefined;
  private readonly onMessage = (message: FromWorker) => {
    if ((message.kind === 'learn-ack' || message.kind === 'profile') && message.session !== this.session) return;
    if (message.kind === 'learn-ack') {
      this.inFlight -= 1;
      if (message.data.byteLength === CHUNK_BYTES) this.spare.push(message.data);
      this.pump();
    } else if (message.kind === 'profile') {
      const profile = message.profile ?? undefined;
      this.giveBack();
      this.answer?.(profile);
    }
  };
  private readonly onExit = () => this.stop('stopped');

  /** A chunk the store has just stored (`kept`: the store holds this very buffer). */
  push(chunk: Buffer, kept: boolean): void {
    if (this.done) return;
    if (!this.worker) {
      this.worker = tableWorkers() ? lend(() => this.stop('readWanted')) : undefined;
      if (!this.worker) {
        learnStats.noWorker += 1;
        this.done = true;
        return;
      }
      this.worker.on('message', this.onMessage);
      this.worker.once('exit', this.onExit);
    }
    this.queue.push({ chunk, kept });
    if (!kept) this.held += chunk.length;
    if (this.held > MAX_HELD_BYTES) return this.stop('held');
    this.pump();
  }

  /** The upload is stored as `blobId`: the profile is kept for it when the worker has learned every chunk. */
  finish(blobId: string): void {
    if (this.done) return;
    const learned = new Promise<CsvProfile | undefined>((resolve) => (this.answer = resolve));
    catchingUp.set(
      blobId,
      learned.then((profile) => {
        catchingUp.delete(blobId);
        if (!profile) {
          if (!this.stoppedEarly) learnStats.notLearnable += 1;
          return;
        }
        learnStats.learned += 1;
        if (profiles.size >= PROFILES_MAX) profiles.delete(profiles.keys().next().value!);
        profiles.set(blobId, profile);
      }),
    );
    this.blobId = blobId;
    this.pump();
  }

  /** The upload failed, or the learning cannot go on: nothing is learned. */
  stop(why: 'stopped' | 'held' | 'readWanted' = 'stopped'): void {
    if (this.done) return;
    learnStats[why] += 1;
    this.stoppedEarly = true;
    this.worker?.postMessage({ kind: 'learn-stop' } satisfies ToWorker);
    this.giveBack();
    this.answer?.(undefined);
  }

  /** Sends chunks while fewer than IN_FLIGHT are unlearned, then `learn-end` after the last once the blob is known. */
  private pump(): void {
    const worker = this.worker;
    if (this.done || !worker) return;
    while (this.inFlight < IN_FLIGHT && this.queue.length > 0) {
      const { chunk, kept } = this.queue.shift()!;
      if (!kept) this.held -= chunk.length;
      // Copied into a buffer of the learning's own, transferred: the store's chunk stays the store's.
      const data = chunk.length <= CHUNK_BYTES ? (this.spare.pop() ?? new ArrayBuffer(CHUNK_BYTES)) : new ArrayBuffer(chunk.length);
      new Uint8Array(data, 0, chunk.length).set(chunk);
      this.inFlight += 1;
      worker.postMessage({ kind: 'learn', session: this.session, data, length: chunk.length } satisfies ToWorker, [data]);
    }
    if (this.blobId !== undefined && this.queue.length === 0) {
      this.blobId = undefined;
      worker.postMessage({ kind: 'learn-end', session: this.session } satisfies ToWorker);
    }
  }

  private giveBack(): void {
    this.done = true;
    this.queue.length = 0;
    this.held = 0;
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    worker.off('message', this.onMessage);
    worker.off('exit', this.onExit);
    returned(worker);
    // A worker that died has left the pool already (worker-threads.ts counts its exit). One stopped may still
    // have a chunk or two to learn: it takes them before the next read's job.
    if (worker.threadId >= 0) release(worker);
  }
}

/**
 * Before a passthrough read of `blobIds`: waits for learnings still catching up on them, then marks each file whose
 * profile fits `columns` as known to fit (read-table.ts knownFits). Waiting costs no more than the read's own scan
 * would: the worker learns faster than this thread scans and sends, and the read then sends without a scan.
 */
export async function learnedFits(blobIds: readonly string[], columns: readonly Column[]): Promise<void> {
  for (const blobId of blobIds) {
    const pending = catchingUp.get(blobId);
    if (pending) await pending;
    const profile = profiles.get(blobId);
    if (profile && profileFits(profile, columns)) knownFits.remember(fitKey(blobId, columns));
  }
}

/** Whether any upload was learned or is being learned (reads look only then). */
export const learnedAny = (): boolean => profiles.size > 0 || catchingUp.size > 0;
