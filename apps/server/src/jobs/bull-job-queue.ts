// REDIS_URL: BullMQ carries the dispatch, the database stays the record. Every job is still a row
// (status, attempts, the routes' view of it); its BullMQ job has the row's id as job id, so adding it
// twice is harmless. BullMQ hands a job to one idle worker on any machine and notices a worker that
// died (its lock runs out, the stalled check puts the job back); the row decides what may run: a job
// is claimed with one conditional UPDATE and carries a lease its runner renews, so a redelivery while
// the first runner still lives waits, a job never completes twice and the handlers refund quota once.
// Redis may lose its data (an outage without persistence): every process reconciles, adding a BullMQ
// job for each queued row, or processing row whose lease ran out, that BullMQ no longer holds.
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'kysely';
import { DelayedError, Queue, WaitingError, Worker } from 'bullmq';
import type { Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { JDb, JobRow } from '../db/jobs-schema.ts';
import type { JobConfig } from './job-config.ts';
import { failureOf, insertJobRow, iso } from './job-rows.ts';
import type { AbortReason } from './job-rows.ts';
import { JobFailure } from './job-queue.ts';
import type { JobHandler, JobKind, JobQueue, JobUpdate, NewJob } from './job-queue.ts';

/** How a run ended for BullMQ: done (the row is final) or handed back (the row is queued again). */
type RunEnd = 'done' | 'handed_back';

interface Running {
  job: JobRow;
  controller: AbortController;
  reason: AbortReason | null;
  done: Promise<RunEnd>;
}

interface BullData {
  kind: JobKind;
}

export interface BullQueueOptions {
  redisUrl: string;
  /** BullMQ key prefix; one per deployment sharing a Redis */
  prefix?: string;
  /** how often this process compares the rows with what BullMQ holds */
  reconcileMs?: number;
}

export const BULL_QUEUE_NAME = 'jobs';
/** how long a BullMQ job may wait for its row to appear (an enqueuing transaction still open) */
const YOUNG_MS = 10_000;
const retry = (attempt: number): number => Math.min(attempt * 200, 2000);

function within(p: Promise<unknown> | undefined, ms: number): Promise<unknown> {
  if (!p) return Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export class BullJobQueue implements JobQueue {
  readonly events = new EventEmitter();
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly running = new Map<string, Running>();
  /** rows written by enqueue() whose BullMQ job wake() adds once the caller committed */
  private pending: { id: string; kind: JobKind }[] = [];
  private readonly prefix: string;
  private readonly reconcileMs: number;
  private producer: Redis | null = null;
  private consumer: Redis | null = null;
  private queue: Queue<BullData> | null = null;
  private worker: Worker<BullData> | null = null;
  private timers: NodeJS.Timeout[] = [];
  private started = false;
  private reconciling = false;

  constructor(
    private readonly db: JDb,
    private readonly config: JobConfig,
    private readonly handlers: Record<JobKind, JobHandler>,
    private readonly log: FastifyBaseLogger,
    private readonly options: BullQueueOptions,
  ) {
    this.events.setMaxListeners(0);
    this.prefix = options.prefix ?? 'tazamun';
    this.reconcileMs = options.reconcileMs ?? 2000;
  }

  notify(update: JobUpdate): void {
    this.events.emit('update', update);
  }

  async enqueue(db: JDb, job: NewJob): Promise<string> {
    const id = await insertJobRow(db, job, this.config.maxAttempts);
    this.pending.push({ id, kind: job.kind });
    return id;
  }

  /**
   * After a commit: the new rows go to BullMQ. A wake from another process (relayed by RedisSignals)
   * means "look at the rows": running jobs are checked for a cancel at once.
   */
  wake(): void {
    const batch = this.pending;
    this.pending = [];
    for (const p of batch)
      // Redis away: the row is queued, and the reconciler adds it once Redis answers again.
      void this.add(p.id, p.kind).catch((err: unknown) =>
        this.log.warn({ err: (err as Error).message, job: p.id }, 'BullMQ add failed; reconciler will retry'),
      );
    if (this.running.size > 0) void this.heartbeat();
  }

  private async add(id: string, kind: JobKind): Promise<void> {
    if (!this.queue) throw new Error('queue not started');
    await this.queue.add(kind, { kind }, { jobId: id, removeOnComplete: true, removeOnFail: true });
  }

  async cancel(jobId: string): Promise<'cancelled' | 'requested' | 'not_cancellable'> {
    const now = iso();
    const queued = await this.db
      .updateTable('jobs')
      .set({ status: 'cancelled', finished_at: now, updated_at: now })
      .where('id', '=', jobId)
      .where('status', '=', 'queued')
      .returningAll()
      .executeTakeFirst();
    if (queued) {
      await this.handlers[queued.kind].cancelled(queued);
      this.notify({ alignmentId: queued.alignment_id, videoId: queued.video_id });
      // Tidy only: a worker that already took it finds the row cancelled and drops it.
      await this.queue?.remove(jobId).catch(() => 0);
      return 'cancelled';
    }
    const r = await this.db
      .updateTable('jobs')
      .set({ cancel_requested: 1, updated_at: now })
      .where('id', '=', jobId)
      .where('status', '=', 'processing')
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return 'not_cancellable';
    const local = this.running.get(jobId);
    if (local) {
      this.abort(local, 'cancel');
      await local.done;
      return 'cancelled';
    }
    // RedisSignals relays the wake: the worker holding the job reads the request at once.
    this.wake();
    return 'requested';
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const { redisUrl } = this.options;
    // The producer fails fast while Redis is away (the reconciler covers it) instead of queueing
    // commands in memory; the worker's connection must wait forever (BullMQ's blocking reads).
    this.producer = new Redis(redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: retry,
    });
    this.producer.on('error', (err: Error) => this.log.warn({ err: err.message }, 'redis (queue)'));
    this.queue = new Queue<BullData>(BULL_QUEUE_NAME, { connection: this.producer, prefix: this.prefix });
    this.queue.on('error', (err: Error) => this.log.warn({ err: err.message }, 'BullMQ queue'));
    if (this.config.concurrency > 0) {
      this.consumer = new Redis(redisUrl, { maxRetriesPerRequest: null, retryStrategy: retry });
      this.consumer.on('error', (err: Error) => this.log.warn({ err: err.message }, 'redis (worker)'));
      this.worker = new Worker<BullData>(BULL_QUEUE_NAME, (job, token) => this.process(job, token), {
        connection: this.consumer,
        prefix: this.prefix,
        concurrency: this.config.concurrency,
        // JOB_LEASE is both BullMQ's lock and the row's lease: a dead worker's job moves on after it
        lockDuration: this.config.leaseMs,
        stalledInterval: Math.max(500, Math.floor(this.config.leaseMs / 2)),
        // the row's attempts decide when a job has run too often, not BullMQ's stall count
        maxStalledCount: this.config.maxAttempts + 1,
      });
      this.worker.on('error', (err: Error) => this.log.warn({ err: err.message }, 'BullMQ worker'));
      this.timers.push(
        setInterval(() => void this.heartbeat(), Math.max(200, Math.floor(this.config.leaseMs / 3))),
      );
    }
    this.timers.push(setInterval(() => void this.reconcile(), this.reconcileMs));
    for (const t of this.timers) t.unref();
    void this.reconcile();
  }

  /** Running jobs go back to the queue without using up an attempt: a deploy is not the job's fault. */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    const closing = this.worker?.close();
    const all = [...this.running.values()];
    for (const r of all) this.abort(r, 'shutdown');
    await Promise.allSettled(all.map((r) => r.done));
    // Closing talks to Redis; with Redis away it would wait for its return, so it gets a few seconds.
    // The jobs were handed back to the rows already, which the reconciler of any process re-adds.
    await within(closing, 5000).catch((err: unknown) => this.log.warn({ err }, 'closing the BullMQ worker'));
    await within(this.queue?.close(), 2000).catch(() => undefined);
    for (const c of [this.consumer, this.producer]) c?.disconnect();
    this.worker = null;
    this.queue = null;
  }

  /**
   * Every queued row, and every processing row whose runner stopped renewing its lease, must have a
   * BullMQ job: after a Redis outage that lost the data, or an add that failed while Redis was away.
   */
  async reconcile(): Promise<number> {
    if (this.reconciling || !this.queue) return 0;
    this.reconciling = true;
    let added = 0;
    try {
      const rows = await this.db
        .selectFrom('jobs')
        .select(['id', 'kind', 'status'])
        .where((eb) =>
          eb.or([
            eb('status', '=', 'queued'),
            eb.and([eb('status', '=', 'processing'), eb('lease_until', '<', iso())]),
          ]),
        )
        .orderBy('created_at')
        .limit(500)
        .execute();
      const candidates = rows.filter((r) => !this.running.has(r.id));
      if (candidates.length === 0) return 0;
      // One round trip for the common case: every row's BullMQ job is there (finished jobs are
      // removed at once, so a key that exists is a job still waiting, delayed or running).
      const pipeline = this.producer!.pipeline();
      for (const r of candidates) pipeline.exists(this.queue.toKey(r.id));
      const exists = (await pipeline.exec()) ?? [];
      for (const [i, row] of candidates.entries()) {
        const [err, found] = exists[i] ?? [null, 0];
        if (err || found === 1) continue;
        await this.add(row.id, row.kind);
        added += 1;
        this.log.warn({ job: row.id, status: row.status }, 'job row had no BullMQ job: added');
      }
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'reconciling rows with BullMQ failed');
    } finally {
      this.reconciling = false;
    }
    return added;
  }

  /** BullMQ's processor: the row says whether this delivery may run. */
  private async process(bull: Job<BullData>, token?: string): Promise<void> {
    const id = bull.id!;
    const row = await this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row && Date.now() - bull.timestamp < YOUNG_MS) {
      // A wake() flushes every pending add of its process, possibly one whose transaction has not
      // committed yet: look again shortly instead of leaving the row to the reconciler.
      await bull.moveToDelayed(Date.now() + 500, token);
      throw new DelayedError();
    }
    // deleted, cancelled or already finished: nothing to do
    if (!row || (row.status !== 'queued' && row.status !== 'processing')) return;
    if (row.status === 'processing') {
      // already running here (BullMQ redelivered it after losing our lock): this run goes on
      if (this.running.has(id)) return;
      const left = row.lease_until ? Date.parse(row.lease_until) - Date.now() : 0;
      if (left > 0) {
        // Its runner renewed the lease lately: it may still live (Redis was away, not the worker).
        // Look again once the lease is over; if the runner finishes first, the row is final by then.
        await bull.moveToDelayed(Date.now() + left + 250, token);
        throw new DelayedError();
      }
      if (row.attempts >= row.max_attempts) {
        if (await this.finish(row, 'failed', row.lease_until))
          await this.handlers[row.kind].failed(row, new JobFailure('job_interrupted'));
        this.notify({ alignmentId: row.alignment_id, videoId: row.video_id });
        return;
      }
    }
    const job = await this.claim(row);
    if (!job) return; // another worker won the row
    if (row.status === 'processing') {
      this.log.warn({ job: id, attempts: row.attempts, was: row.worker_id }, 'job taken over');
      await this.handlers[job.kind].requeued(row);
    }
    const end = await this.launch(job);
    if (end === 'handed_back') {
      // the row is queued again: so is its BullMQ job, for whichever worker is free
      await bull.moveToWait(token);
      throw new WaitingError();
    }
  }

  private async claim(row: JobRow): Promise<JobRow | undefined> {
    const now = iso();
    let q = this.db
      .updateTable('jobs')
      .set({
        status: 'processing',
        attempts: sql<number>`attempts + 1`,
        worker_id: this.workerId,
        lease_until: iso(Date.now() + this.config.leaseMs),
        cancel_requested: 0,
        started_at: sql<string>`coalesce(started_at, ${now})`,
        updated_at: now,
      })
      .where('id', '=', row.id)
      .where('status', '=', row.status);
    if (row.status === 'processing') q = q.where('lease_until', '=', row.lease_until);
    return q.returningAll().executeTakeFirst();
  }

  private launch(job: JobRow): Promise<RunEnd> {
    const controller = new AbortController();
    const entry: Running = { job, controller, reason: null, done: Promise.resolve('done') };
    this.running.set(job.id, entry);
    const timer = setTimeout(() => this.abort(entry, 'timeout'), job.timeout_ms);
    entry.done = this.execute(entry).finally(() => {
      clearTimeout(timer);
      this.running.delete(job.id);
    });
    return entry.done;
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
      progress: async () => this.notify({ alignmentId: job.alignment_id, videoId: job.video_id }),
    };
    let end: RunEnd = 'done';
    try {
      await this.handlers[job.kind].run(job, ctx);
      if (entry.reason) throw new Error('aborted');
      await this.finish(job, 'completed');
    } catch (err) {
      end = await this.settleFailure(entry, err).catch((e: unknown) => {
        this.log.error({ err: e, job: job.id }, 'recording a job failure failed');
        return 'done' as const;
      });
    }
    this.notify({ alignmentId: job.alignment_id, videoId: job.video_id });
    return end;
  }

  private async settleFailure(entry: Running, err: unknown): Promise<RunEnd> {
    const { job } = entry;
    const handler = this.handlers[job.kind];
    if (entry.reason === 'cancel') {
      if (await this.finish(job, 'cancelled')) await handler.cancelled(job);
      return 'done';
    }
    if (entry.reason === 'shutdown') {
      if (await this.requeue(job, true)) await handler.requeued(job);
      return 'handed_back';
    }
    const failure = failureOf(entry.reason, err, this.log, job.id);
    if (failure.options.retry && job.attempts < job.max_attempts) {
      if (await this.requeue(job, false)) await handler.requeued(job);
      return 'handed_back';
    }
    if (await this.finish(job, 'failed')) await handler.failed(job, failure);
    return 'done';
  }

  /** Back to queued, if this runner still owns the row; a shutdown gives the attempt back. */
  private async requeue(job: JobRow, giveAttemptBack: boolean): Promise<boolean> {
    const r = await this.db
      .updateTable('jobs')
      .set({
        status: 'queued',
        ...(giveAttemptBack
          ? { attempts: sql<number>`case when attempts > 0 then attempts - 1 else 0 end` }
          : {}),
        worker_id: null,
        lease_until: null,
        updated_at: iso(),
      })
      .where('id', '=', job.id)
      .where('status', '=', 'processing')
      .where('worker_id', '=', this.workerId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /**
   * Moves a job to a final state if it is still where its runner left it: a runner whose job was
   * taken over (lease lost) finds the row no longer its own and records nothing.
   */
  private async finish(
    job: JobRow,
    status: 'completed' | 'failed' | 'cancelled',
    expiredLease?: string | null,
  ): Promise<boolean> {
    const now = iso();
    let q = this.db
      .updateTable('jobs')
      .set({ status, finished_at: now, updated_at: now, lease_until: null })
      .where('id', '=', job.id)
      .where('status', '=', 'processing');
    q =
      expiredLease === undefined
        ? q.where('worker_id', '=', this.workerId)
        : q.where('lease_until', '=', expiredLease);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Renews the leases of the jobs running here and aborts those cancelled or deleted meanwhile. */
  private async heartbeat(): Promise<void> {
    if (this.running.size === 0) return;
    try {
      const ids = [...this.running.keys()];
      await this.db
        .updateTable('jobs')
        .set({ lease_until: iso(Date.now() + this.config.leaseMs) })
        .where('id', 'in', ids)
        .where('status', '=', 'processing')
        .where('worker_id', '=', this.workerId)
        .execute();
      const rows = await this.db
        .selectFrom('jobs')
        .select(['id', 'cancel_requested', 'worker_id'])
        .where('id', 'in', ids)
        .execute();
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const id of ids) {
        const entry = this.running.get(id);
        const row = byId.get(id);
        // cancelled, deleted with its alignment, or taken over by another worker
        if (entry && (!row || row.cancel_requested === 1 || row.worker_id !== this.workerId))
          this.abort(entry, 'cancel');
      }
    } catch (err) {
      this.log.error({ err }, 'job heartbeat failed');
    }
  }
}
