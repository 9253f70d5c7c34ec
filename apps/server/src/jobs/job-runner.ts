// The one life of a job, whichever transport brought its id (ADR 0019): claim the row, run it under a
// lease its heartbeat renews, and settle it. Every write after the claim is keyed by this runner's
// worker id, so a runner whose job was taken over (its lease ran out while it was stalled) records
// nothing; rows whose runner died are recovered keyed by their expired lease, so only one process
// wins. A failure the handler marks `retry` (an engine fault) is run once more after a backoff.
// db-job-queue.ts polls the rows for ids, bull-job-queue.ts receives them from BullMQ; neither writes
// a job row itself.
// A database outage costs no work (ADR 0051): a finished run keeps its result in memory and records it
// once the database is back (JobContext.persist), the runner's own settling writes wait the same way,
// a run the outage interrupted goes back to the queue without using an attempt, the time limit does
// not run while this runner cannot reach the database, and leases that ran out during an outage are not
// taken over until the database has been back for a whole lease, so their holders can renew them.
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import {
  cancelQueuedJob,
  claimJob,
  claimNextJob,
  expiredJobs,
  failExpiredJob,
  finishJob,
  handBackJob,
  jobStatus,
  renewLeases,
  requestJobCancel,
  requeueExpiredJob,
} from '../db/jobs.ts';
import type { Claimant } from '../db/jobs.ts';
import { deleteWorker, upsertWorker } from '../db/workers.ts';
import { diskFullIn } from '../reliability/disk-space.ts';
import {
  isTransientWriteError,
  isUnavailable,
  logFailure,
  untilWritten,
} from '../reliability/unavailable.ts';
import type { JobConfig } from './job-config.ts';
import { failureOf, iso } from './job-rows.ts';
import type { AbortReason } from './job-rows.ts';
import { JobAborted, JobFailure } from './job-queue.ts';
import type { JobHandler, JobKind, JobUpdate } from './job-queue.ts';
import type { Db } from '../db/database.ts';
import type { JobRow } from '../db/schema.ts';

/** Runs of a job after an engine failure: one retry, then the failure is the job's. */
export const MAX_RETRIES = 1;

/**
 * How a run ended: `done` (the row is final, or no longer this runner's), or handed back (the row is
 * queued again; `runAfter` is the retry's backoff deadline in ms, null to run at once).
 */
export type RunEnd = { end: 'done' } | { end: 'handed_back'; runAfter: number | null };

export type CancelOutcome = 'cancelled_queued' | 'cancelled' | 'requested' | 'not_cancellable';

/** Beats a `workers` row may miss before the process is shown dead. */
export const REGISTRY_MISSED_BEATS = 3;
/** How long settling writes may still wait for the database once stop() handed the jobs back. */
const STOP_WRITE_GRACE_MS = 5000;

interface Running {
  job: JobRow;
  controller: AbortController;
  reason: AbortReason | null;
  done: Promise<RunEnd>;
  timer: NodeJS.Timeout | null;
  /** the work is done (persist was called): the time limit no longer applies */
  workDone: boolean;
  /** the "waiting to record" line was logged */
  waiting: boolean;
}

export class JobRunner {
  readonly events = new EventEmitter();
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly running = new Map<string, Running>();
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private readonly startedAt = iso();
  /** runs of this process, for its workers row: an engine failing every job shows there */
  private readonly runs = { completed: 0, failed: 0 };
  private stopping = false;
  /** when this runner's heartbeats started failing (null: they succeed) and when they came back */
  private dbTroubleSince: number | null = null;
  private dbBackAt = 0;
  /** aborted a little after stop(): settling writes stop waiting for a database that is not back */
  private readonly giveUp = new AbortController();

  constructor(
    private readonly db: Db,
    private readonly config: JobConfig,
    private readonly handlers: Record<JobKind, JobHandler>,
    private readonly log: FastifyBaseLogger,
    /** how job ids reach this process, recorded in its workers row */
    private readonly transport: 'database' | 'bullmq' = 'database',
  ) {
    this.events.setMaxListeners(0);
  }

  get size(): number {
    return this.running.size;
  }

  has(jobId: string): boolean {
    return this.running.has(jobId);
  }

  notify(update: JobUpdate): void {
    this.events.emit('update', update);
  }

  private notifyJob(job: JobRow): void {
    this.notify({ alignmentId: job.alignment_id, videoId: job.video_id, modelId: job.model_id });
  }

  /** How often this process beats: its `workers` row, and its jobs' leases at least every lease/3. */
  private get beatMs(): number {
    return Math.max(200, Math.min(this.config.heartbeatMs, Math.floor(this.config.leaseMs / 3)));
  }

  /**
   * Registers this process in `workers` and, every beat, renews that row and the leases of the jobs
   * running here. Called by a transport that runs jobs (concurrency > 0).
   */
  startHeartbeat(): void {
    if (this.heartbeatTimer) return;
    this.heartbeatTimer = setInterval(() => void this.beat(), this.beatMs);
    this.heartbeatTimer.unref();
    void this.beat();
  }

  private async beat(): Promise<void> {
    const registered = await this.register();
    const renewed = await this.heartbeat();
    this.noteDatabase(registered && renewed);
  }

  private noteDatabase(ok: boolean): void {
    if (!ok) this.dbTroubleSince ??= Date.now();
    else if (this.dbTroubleSince !== null) {
      this.dbTroubleSince = null;
      this.dbBackAt = Date.now();
    }
  }

  /**
   * False during an outage this runner saw and for one lease after it: a lease that ran out meanwhile
   * belongs to a runner that could not renew it, which its next heartbeat does.
   */
  private databaseSettled(): boolean {
    return this.dbTroubleSince === null && Date.now() - this.dbBackAt >= this.config.leaseMs;
  }

  /** This process's row in `workers`: live while heartbeat_at + lease_ms is ahead of the clock. */
  private async register(): Promise<boolean> {
    const now = iso();
    const figures = {
      running: this.running.size,
      completed: this.runs.completed,
      failed: this.runs.failed,
      stopping: this.stopping ? 1 : 0,
      heartbeat_at: now,
      // the row's own lease: a few beats, not the jobs' lease, so a dead process shows at once
      lease_ms: this.beatMs * REGISTRY_MISSED_BEATS,
    };
    try {
      await upsertWorker(
        this.db,
        {
          id: this.workerId,
          hostname: hostname(),
          pid: process.pid,
          transport: this.transport,
          concurrency: this.config.concurrency,
          started_at: this.startedAt,
        },
        figures,
      );
      return true;
    } catch (err) {
      logFailure(this.log, 'error', err, 'worker heartbeat failed');
      return false;
    }
  }

  /**
   * The transport stopped claiming. Running jobs may finish for `drainMs` (JOB_DRAIN_TIMEOUT), their
   * leases still renewed; those still running then go back to the queue without using up an attempt:
   * a deploy is not the job's fault.
   */
  async stop(): Promise<void> {
    const registered = this.heartbeatTimer !== null;
    this.stopping = true;
    const draining = [...this.running.values()];
    if (this.config.drainMs > 0 && draining.length > 0) {
      this.log.info(
        { jobs: draining.map((r) => r.job.id), drain_ms: this.config.drainMs },
        'stopping: running jobs may finish first',
      );
      if (registered) await this.register();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.config.drainMs)));
      await Promise.race([Promise.allSettled(draining.map((r) => r.done)), late]);
      clearTimeout(timer);
    }
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
    const all = [...this.running.values()];
    if (all.length > 0) this.log.info({ jobs: all.map((r) => r.job.id) }, 'stopping: jobs handed back');
    for (const r of all) this.abort(r, 'shutdown');
    // handing back waits for a database that is away, but not past the process's own stop deadline
    const giveUp = setTimeout(() => this.giveUp.abort(), STOP_WRITE_GRACE_MS);
    await Promise.allSettled(all.map((r) => r.done));
    clearTimeout(giveUp);
    if (registered)
      await deleteWorker(this.db, this.workerId).catch((err: unknown) =>
        this.log.warn({ err }, 'removing the workers row failed'),
      );
  }

  // ---- claims ----

  private claimant(): Claimant {
    return { workerId: this.workerId, leaseUntil: iso(Date.now() + this.config.leaseMs), nowIso: iso() };
  }

  /** The next queued job whose backoff is over, for the database poll, in the fair order (fair-share.ts). */
  async claimNext(): Promise<JobRow | undefined> {
    return claimNextJob(this.db, this.claimant());
  }

  /**
   * This queued job, for a transport that was handed its id: undefined when another runner won it,
   * `deferred` when it is a free job whose user already runs one of its kind (ask again later).
   */
  async claim(jobId: string): Promise<JobRow | 'deferred' | undefined> {
    const claimed = await claimJob(this.db, jobId, this.claimant());
    if (claimed) return claimed;
    return (await jobStatus(this.db, jobId)) === 'queued' ? 'deferred' : undefined;
  }

  /** Processing rows whose runner stopped renewing the lease. */
  async expiredRows(): Promise<JobRow[]> {
    return expiredJobs(this.db, iso());
  }

  /**
   * A row whose runner died: queued again, or failed with `job_interrupted` after max_attempts runs.
   * Keyed by the expired lease, so of several processes finding it only one acts; `lost` when another did.
   * `wait` while this runner's database is not settled after an outage (its holder may renew it).
   */
  async recoverExpired(row: JobRow): Promise<'requeued' | 'failed' | 'lost' | 'wait'> {
    if (this.running.has(row.id)) return 'lost';
    if (!this.databaseSettled()) return 'wait';
    const handler = this.handlers[row.kind];
    if (row.attempts >= row.max_attempts) {
      if (!(await failExpiredJob(this.db, row, iso()))) return 'lost';
      await handler.failed(row, new JobFailure('job_interrupted'));
      this.notifyJob(row);
      return 'failed';
    }
    if (!(await requeueExpiredJob(this.db, row, iso()))) return 'lost';
    this.log.warn(
      { job: row.id, attempts: row.attempts, was: row.worker_id },
      'job lease expired: queued again',
    );
    await handler.requeued(row);
    this.notifyJob(row);
    return 'requeued';
  }

  // ---- runs ----

  /** Runs a job this runner claimed; resolves once its row is settled. */
  run(job: JobRow): Promise<RunEnd> {
    const controller = new AbortController();
    const entry: Running = {
      job,
      controller,
      reason: null,
      done: Promise.resolve({ end: 'done' }),
      timer: null,
      workDone: false,
      waiting: false,
    };
    this.running.set(job.id, entry);
    // the time limit does not run while the database is away: the job could not record anything anyway
    const onTimeout = (): void => {
      if (this.dbTroubleSince !== null) entry.timer = setTimeout(onTimeout, this.beatMs);
      else this.abort(entry, 'timeout');
    };
    entry.timer = setTimeout(onTimeout, job.timeout_ms);
    // a cancel that reached the row while no runner held it (handed back at a shutdown)
    if (job.cancel_requested === 1) this.abort(entry, 'cancel');
    entry.done = this.execute(entry).finally(() => {
      if (entry.timer) clearTimeout(entry.timer);
      this.running.delete(job.id);
    });
    return entry.done;
  }

  /**
   * JobContext.persist: the first call ends the time limit; a write meeting an outage or a full disk is
   * retried until it lands or the run is aborted (cancel, shutdown, takeover).
   */
  private async persist<T>(entry: Running, what: string, write: () => Promise<T>): Promise<T> {
    if (!entry.workDone) {
      entry.workDone = true;
      if (entry.timer) clearTimeout(entry.timer);
      entry.timer = null;
    }
    try {
      return await write();
    } catch (err) {
      if (!isTransientWriteError(err) || entry.controller.signal.aborted) throw err;
      const { job } = entry;
      if (!entry.waiting) {
        entry.waiting = true;
        this.log.info(
          {
            job: job.id,
            alignment: job.alignment_id,
            model: job.model_id,
            what,
            err: (err as Error).message,
          },
          'job work done: its result waits for the database or the disk',
        );
      }
      const r = await untilWritten(write, {
        log: this.log,
        what,
        signal: entry.controller.signal,
        context: { job: job.id },
      });
      this.log.info({ job: job.id, alignment: job.alignment_id, what }, 'job result recorded after waiting');
      return r;
    }
  }

  /** A settling write (the job row, the handler's domain row): waits out an outage, until stop() gives up. */
  private write<T>(what: string, job: JobRow, fn: () => Promise<T>): Promise<T> {
    return untilWritten(fn, { log: this.log, what, signal: this.giveUp.signal, context: { job: job.id } });
  }

  private abort(entry: Running, reason: AbortReason): void {
    if (entry.reason) return;
    entry.reason = reason;
    entry.controller.abort(reason);
  }

  private async execute(entry: Running): Promise<RunEnd> {
    const { job } = entry;
    const ctx = {
      signal: entry.controller.signal,
      progress: async () => this.notifyJob(job),
      persist: <T>(what: string, write: () => Promise<T>) => this.persist(entry, what, write),
    };
    let end: RunEnd = { end: 'done' };
    try {
      if (entry.reason) throw new JobAborted(entry.reason);
      await this.handlers[job.kind].run(job, ctx);
      if (entry.reason) throw new JobAborted(entry.reason);
      await this.write('recording a completed job', job, () => this.finish(job, 'completed'));
      this.runs.completed += 1;
    } catch (err) {
      end = await this.settleFailure(entry, err).catch((e: unknown) => {
        this.abandon(job, e);
        return { end: 'done' } as const;
      });
    }
    this.notifyJob(job);
    return end;
  }

  /** Nothing could record the run's end: the row waits for a recovery; say so, once, in logs and metrics. */
  private abandon(job: JobRow, err: unknown): void {
    this.log.error(
      { job: job.id, alignment: job.alignment_id, err },
      "abandoned: the job's end could not be recorded; its lease will run out and it runs again",
    );
    try {
      this.handlers[job.kind].abandoned?.(job, err);
    } catch {
      // a log line or a metric never fails a job
    }
  }

  private async settleFailure(entry: Running, err: unknown): Promise<RunEnd> {
    const { job } = entry;
    const handler = this.handlers[job.kind];
    if (entry.reason === 'cancel') {
      if (await this.write('recording a cancel', job, () => this.finish(job, 'cancelled')))
        await this.write('recording a cancel', job, () => handler.cancelled(job));
      return { end: 'done' };
    }
    // taken over by another runner: the row is not ours to write
    if (entry.reason === 'lost') return { end: 'done' };
    if (entry.reason === 'shutdown') return this.handBack(job, { giveAttemptBack: true, runAfter: null });
    if (entry.reason === null && isUnavailable(err)) {
      // the database (or the file store) went away under the run: not the job's fault. It goes back to
      // the queue with its attempt, once the database takes the write.
      this.log.info(
        { job: job.id, alignment: job.alignment_id, err: (err as Error).message },
        'job interrupted by a dependency outage: handed back',
      );
      return this.handBack(job, { giveAttemptBack: true, runAfter: null });
    }
    if (entry.reason === null && diskFullIn(err)) {
      // the disk (or the database's) is full: not the job's fault nor the engine's. The job waits in
      // the queue, its attempt given back, and runs again once space returns (readiness says why).
      const runAfter = Date.now() + this.config.retryBackoffMs * 5;
      this.log.warn({ job: job.id, err, retry_at: iso(runAfter) }, 'job hit a full disk: handed back');
      return this.handBack(job, { giveAttemptBack: true, runAfter });
    }
    const failure = failureOf(entry.reason, err);
    if (failure.options.refund) this.runs.failed += 1;
    const ctx = { job: job.id, alignment: job.alignment_id, code: failure.code, err: failure.cause ?? err };
    if (failure.options.retry && job.failures < MAX_RETRIES && job.attempts < job.max_attempts) {
      const runAfter = Date.now() + this.config.retryBackoffMs * 2 ** job.failures;
      this.log.warn({ ...ctx, retry_at: iso(runAfter) }, 'job failed: retried once after a backoff');
      return this.handBack(job, { giveAttemptBack: false, runAfter });
    }
    if (failure.options.refund) this.log.error(ctx, 'job failed');
    else this.log.info({ ...ctx, err: undefined, params: failure.params }, 'job refused by its input');
    if (
      await this.write('recording a failed job', job, () =>
        this.finish(job, 'failed', { failed: failure.options.retry === true }),
      )
    )
      await this.write('recording a failed job', job, () => handler.failed(job, failure));
    return { end: 'done' };
  }

  /**
   * Back to queued (its handler told), if this runner still owns the row; `done` when it did not, so
   * the transport does not queue a dispatch for a job another runner holds.
   */
  private async handBack(
    job: JobRow,
    how: { giveAttemptBack: boolean; runAfter: number | null },
  ): Promise<RunEnd> {
    const owned = await this.write('handing a job back', job, () =>
      handBackJob(
        this.db,
        job.id,
        this.workerId,
        { giveAttemptBack: how.giveAttemptBack, runAfter: how.runAfter === null ? null : iso(how.runAfter) },
        iso(),
      ),
    );
    if (!owned) return { end: 'done' };
    await this.write('handing a job back', job, () => this.handlers[job.kind].requeued(job));
    return { end: 'handed_back', runAfter: how.runAfter };
  }

  /** Moves a job to a final state if this runner still owns it. */
  private finish(
    job: JobRow,
    status: 'completed' | 'failed' | 'cancelled',
    opts: { failed?: boolean } = {},
  ): Promise<boolean> {
    return finishJob(this.db, job.id, this.workerId, status, opts, iso());
  }

  /**
   * Renews the leases of the jobs running here and aborts those cancelled, deleted or taken over. False
   * when the database did not answer.
   */
  async heartbeat(): Promise<boolean> {
    if (this.running.size === 0) return true;
    try {
      const ids = [...this.running.keys()];
      const rows = await renewLeases(this.db, ids, this.workerId, iso(Date.now() + this.config.leaseMs));
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const id of ids) {
        const entry = this.running.get(id);
        if (!entry) continue;
        const row = byId.get(id);
        // deleted with its alignment, or cancelled from another process
        if (!row || row.cancel_requested === 1) this.abort(entry, 'cancel');
        else if (row.worker_id !== this.workerId) this.abort(entry, 'lost');
      }
      return true;
    } catch (err) {
      logFailure(this.log, 'error', err, 'job heartbeat failed');
      return false;
    }
  }

  // ---- cancel ----

  /**
   * A queued job is cancelled at once (its unit back); a running one is asked to stop: at once when it
   * runs here, at its runner's next heartbeat (or a relayed wake) elsewhere.
   */
  async cancel(jobId: string): Promise<CancelOutcome> {
    const now = iso();
    const queued = await cancelQueuedJob(this.db, jobId, now);
    if (queued) {
      await this.handlers[queued.kind].cancelled(queued);
      this.notifyJob(queued);
      return 'cancelled_queued';
    }
    if (!(await requestJobCancel(this.db, jobId, now))) return 'not_cancellable';
    const local = this.running.get(jobId);
    if (local) {
      this.abort(local, 'cancel');
      await local.done;
      return 'cancelled';
    }
    return 'requested';
  }
}
