// Many concurrent calls of one kind as one statement. On PostgreSQL a statement's fixed cost (a round trip: a
// write and a read on each side, a plan, a commit) outweighs a row's, so requests that arrive together are stored
// together. No timer: a call made while fewer than `maxInFlight` statements are out is sent at once (alone, no
// added latency); calls made meanwhile queue, and go out together as soon as a statement comes back.
//
// One statement in flight by default. Measured on 2 cores (the bench machine), inserting tokens: one at a time
// in batches cost PostgreSQL 20 us a row, four at a time 90 us a row (backends inserting into the same index
// pages wait on each other), and the batches grow to absorb the wait. A remote database only makes batches
// larger. Used for client_credentials mints (client-mints.ts) and bearer lookups (bearer-lookups.ts):
// `npm run bench -- postgres` went from 0.13x to 0.44x of the memory store's token endpoint throughput, and
// from 0.31x to 0.43x for getCurrent.
export class Coalescer<In, Out> {
  private queue: Array<{ input: In; resolve: (out: Out) => void; reject: (err: unknown) => void }> = [];
  private inFlight = 0;

  private readonly maxInFlight: number;
  private readonly maxBatch: number;
  private readonly failsQueued: (err: unknown) => boolean;

  constructor(
    /** One statement for every input, answering in input order. */
    private readonly run: (inputs: In[]) => Promise<Out[]>,
    options: {
      maxInFlight?: number;
      maxBatch?: number;
      /** Failures that fail the queued calls too (the database is gone: they would only wait their turn to fail). */
      failsQueued?: (err: unknown) => boolean;
    } = {},
  ) {
    this.maxInFlight = options.maxInFlight ?? 1;
    this.maxBatch = options.maxBatch ?? 256;
    this.failsQueued = options.failsQueued ?? (() => false);
  }

  call(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      if (this.inFlight < this.maxInFlight) this.send();
    });
  }

  private send(): void {
    const batch = this.queue.splice(0, this.maxBatch);
    if (batch.length === 0) return;
    this.inFlight++;
    this.run(batch.map((b) => b.input))
      .then(
        (outs) => batch.forEach((b, i) => b.resolve(outs[i]!)),
        (err: unknown) => {
          for (const b of this.failsQueued(err) ? batch.concat(this.queue.splice(0)) : batch) b.reject(err);
        },
      )
      .finally(() => {
        this.inFlight--;
        this.send();
      });
  }
}
