// REDIS_URL: BullMQ carries the dispatch, the database stays the record. Every job is still a row
// (status, attempts, the routes' view of it); its BullMQ job has the row's id as job id, so adding it
// twice is harmless. BullMQ hands a job to one idle worker on any machine and notices a worker that
// died (its lock runs out, the stalled check puts the job back); the row decides what may run, through
// the same runner as the database poll (job-runner.ts: claim, lease, heartbeat, settle, retry), so a
// redelivery while the first runner still lives waits, a job never completes twice and the handlers
// refund quota once.
// Redis may lose its data (an outage without persistence): every process reconciles, adding a BullMQ
// job for each queued row, or processing row whose lease ran out, that BullMQ no longer holds.
// BullMQ and ioredis are imported by start(): a process without REDIS_URL never loads them.
import type * as BullMq from 'bullmq';
import type { Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { JobConfig } from './job-config.ts';
import { iso } from './job-rows.ts';
import { findJobRow, insertJobRow, jobsToDispatch } from '../db/jobs.ts';
import { dispatchPriorities } from './fair-share.ts';
import type { JobHandler, JobKind, JobQueue, JobUpdate, NewJob } from './job-queue.ts';
import { JobRunner } from './job-runner.ts';
import { connectRedis } from '../queue/redis-connection.ts';
import { logFailure } from '../reliability/unavailable.ts';
import type { Db } from '../db/database.ts';

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
/** how long a free job waits before asking again while its user runs one of its kind */
const DEFER_MS = 1000;

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
  private readonly runner: JobRunner;
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
  private bull: typeof BullMq | null = null;

  constructor(
    private readonly db: Db,
    private readonly config: JobConfig,
    handlers: Record<JobKind, JobHandler>,
    private readonly log: FastifyBaseLogger,
    private readonly options: BullQueueOptions,
  ) {
    this.runner = new JobRunner(db, config, handlers, log, 'bullmq');
    this.prefix = options.prefix ?? 'tazamun';
    this.reconcileMs = options.reconcileMs ?? 2000;
  }

  get events() {
    return this.runner.events;
  }

  get workerId(): string {
    return this.runner.workerId;
  }

  notify(update: JobUpdate): void {
    this.runner.notify(update);
  }

  async enqueue(db: Db, job: NewJob): Promise<string> {
    const id = await insertJobRow(db, job, this.config.maxAttempts, iso());
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
    // Redis away: the rows are queued, and the reconciler adds them once Redis answers again.
    if (batch.length > 0)
      void this.addAll(batch).catch((err: unknown) =>
        logFailure(this.log, 'warn', err, 'BullMQ add failed; reconciler will retry', {
          jobs: batch.map((p) => p.id),
        }),
      );
    if (this.runner.size > 0) void this.runner.heartbeat();
  }

  /**
   * BullMQ delivers by priority, then in order: each job's priority is its place in the fair order
   * (fair-share.ts: paying jobs first, then each user's jobs taking turns), as the database poll uses.
   * The jobs of one commit are added in one call, so a worker sees them together and picks by priority,
   * not by which was added first.
   */
  private async addAll(jobs: { id: string; kind: JobKind }[]): Promise<void> {
    if (!this.queue) throw new Error('queue not started');
    const priorities = await dispatchPriorities(
      this.db,
      jobs.map((j) => j.id),
    );
    await this.queue.addBulk(
      jobs.map(({ id, kind }) => ({
        name: kind,
        data: { kind },
        opts: { jobId: id, priority: priorities.get(id) ?? 1, removeOnComplete: true, removeOnFail: true },
      })),
    );
  }

  async cancel(jobId: string): Promise<'cancelled' | 'requested' | 'not_cancellable'> {
    const outcome = await this.runner.cancel(jobId);
    // Tidy only: a worker that already took it finds the row cancelled and drops it.
    if (outcome === 'cancelled_queued') await this.queue?.remove(jobId).catch(() => 0);
    // RedisSignals relays the wake: the worker holding the job reads the request at once.
    if (outcome === 'requested') this.wake();
    return outcome === 'cancelled_queued' ? 'cancelled' : outcome;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const { redisUrl } = this.options;
    const [bull, producer] = await Promise.all([import('bullmq'), connectRedis(redisUrl, 'queue', this.log)]);
    this.bull = bull;
    this.producer = producer;
    this.queue = new bull.Queue<BullData>(BULL_QUEUE_NAME, {
      connection: this.producer,
      prefix: this.prefix,
    });
    this.queue.on('error', (err: Error) => logFailure(this.log, 'warn', err, 'BullMQ queue'));
    if (this.config.concurrency > 0) {
      this.consumer = await connectRedis(redisUrl, 'worker', this.log);
      this.worker = new bull.Worker<BullData>(BULL_QUEUE_NAME, (job, token) => this.process(job, token), {
        connection: this.consumer,
        prefix: this.prefix,
        concurrency: this.config.concurrency,
        // JOB_LEASE is both BullMQ's lock and the row's lease: a dead worker's job moves on after it
        lockDuration: this.config.leaseMs,
        stalledInterval: Math.max(500, Math.floor(this.config.leaseMs / 2)),
        // the row's attempts decide when a job has run too often, not BullMQ's stall count
        maxStalledCount: this.config.maxAttempts + 1,
      });
      this.worker.on('error', (err: Error) => logFailure(this.log, 'warn', err, 'BullMQ worker'));
      this.runner.startHeartbeat();
    }
    this.timers.push(setInterval(() => void this.reconcile(), this.reconcileMs));
    for (const t of this.timers) t.unref();
    void this.reconcile();
  }

  /** The Redis connections of this queue by name, each a PING for the metrics (false when it is not up). */
  redisPings(): Record<'queue' | 'worker', () => Promise<boolean>> {
    const ping = async (c: Redis | null) => c !== null && (await c.ping()) === 'PONG';
    return { queue: () => ping(this.producer), worker: () => ping(this.consumer) };
  }

  /** Running jobs go back to the queue without using up an attempt: a deploy is not the job's fault. */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    const closing = this.worker?.close();
    await this.runner.stop();
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
      const rows = await jobsToDispatch(this.db, iso(), 500);
      const candidates = rows.filter((r) => !this.runner.has(r.id));
      if (candidates.length === 0) return 0;
      // One round trip for the common case: every row's BullMQ job is there (finished jobs are
      // removed at once, so a key that exists is a job still waiting, delayed or running).
      const pipeline = this.producer!.pipeline();
      for (const r of candidates) pipeline.exists(this.queue.toKey(r.id));
      const exists = (await pipeline.exec()) ?? [];
      for (const [i, row] of candidates.entries()) {
        const [err, found] = exists[i] ?? [null, 0];
        if (err || found === 1) continue;
        await this.addAll([{ id: row.id, kind: row.kind }]);
        added += 1;
        this.log.warn({ job: row.id, status: row.status }, 'job row had no BullMQ job: added');
      }
    } catch (err) {
      logFailure(this.log, 'warn', err, 'reconciling rows with BullMQ failed');
    } finally {
      this.reconciling = false;
    }
    return added;
  }

  /** BullMQ's processor: the row says whether this delivery may run; the runner does the rest. */
  private async process(bull: Job<BullData>, token?: string): Promise<void> {
    const id = bull.id!;
    const { DelayedError, WaitingError } = this.bull!;
    const delay = async (until: number): Promise<never> => {
      await bull.moveToDelayed(until, token);
      throw new DelayedError();
    };
    let row = await findJobRow(this.db, id);
    // A wake() flushes every pending add of its process, possibly one whose transaction has not
    // committed yet: look again shortly instead of leaving the row to the reconciler.
    if (!row && Date.now() - bull.timestamp < YOUNG_MS) await delay(Date.now() + 500);
    // deleted, cancelled or already finished: nothing to do
    if (!row || (row.status !== 'queued' && row.status !== 'processing')) return;
    if (row.status === 'processing') {
      // already running here (BullMQ redelivered it after losing our lock): this run goes on
      if (this.runner.has(id)) return;
      const left = row.lease_until ? Date.parse(row.lease_until) - Date.now() : 0;
      // Its runner renewed the lease lately: it may still live (Redis was away, not the worker).
      // Look again once the lease is over; if the runner finishes first, the row is final by then.
      if (left > 0) await delay(Date.now() + left + 250);
      const recovered = await this.runner.recoverExpired(row);
      // just after a database outage: its holder may still renew it; look again a lease later
      if (recovered === 'wait') await delay(Date.now() + this.config.leaseMs);
      if (recovered !== 'requeued') return;
      row = { ...row, status: 'queued' };
    }
    // a retry waits out its backoff, however BullMQ came to deliver it
    const runAfter = row.run_after ? Date.parse(row.run_after) : 0;
    if (runAfter > Date.now()) await delay(runAfter);
    const job = await this.runner.claim(id);
    // a free job whose user runs one of its kind: its turn comes after that one (fair-share.ts)
    if (job === 'deferred') return delay(Date.now() + DEFER_MS);
    if (!job) return; // another worker won the row
    const r = await this.runner.run(job);
    if (r.end === 'handed_back') {
      // the row is queued again: so is its BullMQ job, for whichever worker is free (after a backoff)
      if (r.runAfter !== null) await delay(r.runAfter);
      await bull.moveToWait(token);
      throw new WaitingError();
    }
  }
}
