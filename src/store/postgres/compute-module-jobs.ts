// Compute-module jobs. A claim is one UPDATE of the runtime's oldest queued row picked with
// FOR UPDATE SKIP LOCKED, so pollers on any number of instances never take the same job and never wait on
// each other; every other state change is one conditional UPDATE whose WHERE clause is the state machine.
import type { ComputeModuleJobRepo, JobRecord, JobResult, JobState, RequeueOutcome } from '../compute-module-jobs.js';
import type { Db, Querier } from './db.js';
import { capped, decode, encode } from './records.js';
import { DB_NOW_MS, leaseLapsed } from './instances.js';

/** The parts of a job that never change, stored once as JSON text. */
type Fixed = Pick<JobRecord, 'deployedAppRid' | 'branch' | 'queryType' | 'query'>;

interface Row {
  job_id: string;
  seq: number;
  runtime_id: string;
  state: JobState;
  hand_outs: number;
  submitted_at: number;
  started_at: number | null;
  finished_at: number | null;
  failure: string | null;
  result: Buffer | null;
  result_type: string | null;
  record: string;
}

const COLUMNS = 'job_id, seq, runtime_id, state, hand_outs, submitted_at, started_at, finished_at, failure, result, result_type, record';

function toJob(row: Row): JobRecord {
  const job: JobRecord = {
    jobId: row.job_id,
    runtimeId: row.runtime_id,
    ...decode<Fixed>(row.record),
    state: row.state,
    handOuts: row.hand_outs,
    submittedAt: row.submitted_at,
  };
  if (row.started_at !== null) job.startedAt = row.started_at;
  if (row.finished_at !== null) job.finishedAt = row.finished_at;
  if (row.failure !== null) job.failure = row.failure;
  if (row.result !== null) job.result = row.result_type === null ? { body: row.result } : { body: row.result, contentType: row.result_type };
  return job;
}

const OPEN = "state IN ('queued', 'inProgress')";

export class PgComputeModuleJobs implements ComputeModuleJobRepo {
  constructor(private readonly db: Db) {}

  async insert(job: JobRecord, q: Querier = this.db): Promise<void> {
    const fixed: Fixed = { deployedAppRid: job.deployedAppRid, branch: job.branch, queryType: job.queryType, query: job.query };
    await q.query("INSERT INTO jobs (job_id, runtime_id, state, submitted_at, record) VALUES ($1, $2, 'queued', $3, $4)", [
      job.jobId,
      job.runtimeId,
      job.submittedAt,
      encode(fixed),
    ]);
  }

  /**
   * As insert, unless the runtime already has `maxQueued` queued jobs: then nothing is stored and the answer is
   * false. The runtime's row is locked first, so submits on every instance take turns and cannot overshoot.
   */
  async insertIfRoom(job: JobRecord, maxQueued: number): Promise<boolean> {
    return this.db.transaction(async (q) => {
      await q.query('SELECT 1 FROM runtimes WHERE runtime_id = $1 FOR UPDATE', [job.runtimeId]);
      const n = (await q.query<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE runtime_id = $1 AND state = 'queued'", [job.runtimeId])).rows[0]!.n;
      if (n >= maxQueued) return false;
      await this.insert(job, q);
      return true;
    });
  }

  /** The runtime's newest `limit` jobs in any state, newest (last submitted) first. */
  async listByRuntime(runtimeId: string, limit: number): Promise<JobRecord[]> {
    return (await this.db.rows<Row>(`SELECT ${COLUMNS} FROM jobs WHERE runtime_id = $1 ORDER BY seq DESC LIMIT $2`, [runtimeId, limit])).map(toJob);
  }

  async byId(jobId: string): Promise<JobRecord | undefined> {
    const row = await this.db.first<Row>(`SELECT ${COLUMNS} FROM jobs WHERE job_id = $1`, [jobId]);
    return row && toJob(row);
  }

  async claimNext(runtimeId: string, now: number, holder?: string): Promise<JobRecord | undefined> {
    const row = await this.db.first<Row>(
      `UPDATE jobs SET state = 'inProgress', hand_outs = hand_outs + 1, started_at = $2, holder = $3
       WHERE job_id = (SELECT job_id FROM jobs WHERE runtime_id = $1 AND state = 'queued' ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      [runtimeId, now, holder ?? null],
    );
    return row && toJob(row);
  }

  /** The jobs of instances whose lease lapsed; the rows of instances gone long ago are dropped on the way. */
  async requeueLapsed(goneMs: number, maxHandOuts: number, failure: string, now: number): Promise<RequeueOutcome> {
    await this.db.query(`DELETE FROM instances WHERE seen_at < ${DB_NOW_MS} - $1::bigint * 10`, [goneMs]);
    return this.requeueWhere(`holder IS NOT NULL AND ${leaseLapsed('jobs.holder', '$4')}`, [goneMs], maxHandOuts, failure, now);
  }

  async unclaim(jobId: string, handOuts: number): Promise<boolean> {
    const res = await this.db.query(
      "UPDATE jobs SET state = 'queued', hand_outs = hand_outs - 1, started_at = NULL WHERE job_id = $1 AND state = 'inProgress' AND hand_outs = $2",
      [jobId, handOuts],
    );
    return res.rowCount === 1;
  }

  async complete(jobId: string, result: JobResult, now: number): Promise<JobRecord | undefined> {
    // The retained bytes are counted in the same statement that finishes the job.
    const row = await this.db.first<Row>(
      `WITH done AS (UPDATE jobs SET state = 'succeeded', result = $2, result_bytes = $5, result_type = $3, finished_at = $4, finish_seq = nextval('job_finish_seq')
                     WHERE job_id = $1 AND ${OPEN} RETURNING ${COLUMNS}),
            counted AS (UPDATE counters SET n = n + $5 WHERE name = 'result_bytes' AND EXISTS (SELECT 1 FROM done))
       SELECT * FROM done`,
      [jobId, result.body, result.contentType ?? null, now, result.body.length],
    );
    return row && toJob(row);
  }

  /** `queued` or `inProgress` -> `failed` with `failure`; undefined (nothing changes) otherwise. */
  async fail(jobId: string, failure: string, now: number): Promise<JobRecord | undefined> {
    const row = await this.db.first<Row>(
      `UPDATE jobs SET state = 'failed', failure = $2, finished_at = $3, finish_seq = nextval('job_finish_seq')
       WHERE job_id = $1 AND ${OPEN} RETURNING ${COLUMNS}`,
      [jobId, failure, now],
    );
    return row && toJob(row);
  }

  async cancel(jobId: string, now: number): Promise<JobRecord | undefined> {
    const row = await this.db.first<Row>(
      `UPDATE jobs SET state = 'canceled', finished_at = $2, finish_seq = nextval('job_finish_seq')
       WHERE job_id = $1 AND ${OPEN} RETURNING ${COLUMNS}`,
      [jobId, now],
    );
    return row && toJob(row);
  }

  async requeueInProgress(runtimeId: string, maxHandOuts: number, failure: string, now: number): Promise<RequeueOutcome> {
    return this.requeue(runtimeId, null, maxHandOuts, failure, now);
  }

  /** The lease: as requeueInProgress, for jobs last handed out at or before `handedOutBy` only. */
  async requeueHandedOutBefore(runtimeId: string, handedOutBy: number, maxHandOuts: number, failure: string, now: number): Promise<RequeueOutcome> {
    return this.requeue(runtimeId, handedOutBy, maxHandOuts, failure, now);
  }

  async requeueJob(jobId: string, handOuts: number, maxHandOuts: number, failure: string, now: number): Promise<RequeueOutcome> {
    return this.requeueWhere('job_id = $4 AND hand_outs = $5', [jobId, handOuts], maxHandOuts, failure, now);
  }

  private async requeue(runtimeId: string, handedOutBy: number | null, maxHandOuts: number, failure: string, now: number): Promise<RequeueOutcome> {
    return this.requeueWhere('runtime_id = $4 AND ($5::bigint IS NULL OR started_at <= $5::bigint)', [runtimeId, handedOutBy], maxHandOuts, failure, now);
  }

  /** Every in-progress job `where` names ($4, $5 its parameters) goes back, or fails after `maxHandOuts`. */
  private async requeueWhere(where: string, params: unknown[], maxHandOuts: number, failure: string, now: number): Promise<RequeueOutcome> {
    // Back to `queued` keeps `seq`, so a requeued job takes its old place in the queue.
    const rows = await this.db.rows<Row>(
      `UPDATE jobs SET
         state = CASE WHEN hand_outs >= $1 THEN 'failed' ELSE 'queued' END,
         started_at = CASE WHEN hand_outs >= $1 THEN started_at END,
         failure = CASE WHEN hand_outs >= $1 THEN $2 END,
         finished_at = CASE WHEN hand_outs >= $1 THEN $3::bigint END,
         finish_seq = CASE WHEN hand_outs >= $1 THEN nextval('job_finish_seq') END,
         holder = NULL
       WHERE state = 'inProgress' AND ${where}
       RETURNING ${COLUMNS}`,
      [maxHandOuts, failure, now, ...params],
    );
    rows.sort((a, b) => a.seq - b.seq);
    const outcome: RequeueOutcome = { requeued: [], failed: [] };
    for (const row of rows) (row.state === 'failed' ? outcome.failed : outcome.requeued).push(toJob(row));
    return outcome;
  }

  /**
   * Forgets the oldest finished jobs until at most `keep` remain and their results hold at most
   * `maxResultBytes` bytes together; queued and running jobs are never dropped.
   */
  async pruneFinished(keep: number, maxResultBytes?: number): Promise<number> {
    // Finish numbers come from one sequence and a finished job never reopens, so the newest `keep` finished
    // jobs all lie within `keep` numbers of the highest: everything below that window goes, found by index.
    let dropped = await this.forget('finish_seq <= (SELECT max(finish_seq) FROM jobs WHERE finish_seq IS NOT NULL) - $1', keep);
    if (capped(maxResultBytes) && (await this.retainedResultBytes()) > maxResultBytes) {
      // The newest results that fit within the bound stay; the first that does not, and every older one, go.
      dropped += await this.forget(
        `job_id IN (SELECT job_id FROM (SELECT job_id, sum(result_bytes) OVER (ORDER BY finish_seq DESC) AS newer
                                         FROM jobs WHERE finish_seq IS NOT NULL) t WHERE newer > $1)`,
        maxResultBytes,
      );
    }
    return dropped;
  }

  async retainedResultBytes(): Promise<number> {
    return (await this.db.first<{ n: number }>("SELECT n FROM counters WHERE name = 'result_bytes'"))?.n ?? 0;
  }

  /** Deletes the finished jobs `where` names, and their bytes from the count, in one statement. */
  private async forget(where: string, param: number): Promise<number> {
    const row = await this.db.first<{ dropped: number }>(
      `WITH gone AS (DELETE FROM jobs WHERE finish_seq IS NOT NULL AND ${where} RETURNING result_bytes),
            counted AS (UPDATE counters SET n = n - (SELECT coalesce(sum(result_bytes), 0) FROM gone) WHERE name = 'result_bytes')
       SELECT count(*)::int AS dropped FROM gone`,
      [param],
    );
    return row?.dropped ?? 0;
  }

  async countFinished(): Promise<number> {
    return (await this.db.first<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE finish_seq IS NOT NULL'))!.n;
  }
}
