// The embedded queue: jobs are rows, claimed with one conditional UPDATE so that several processes
// (npm start, npm run worker) can share a database. A claimed job carries a lease that its runner
// renews; a job whose lease expired (its process died) is queued again, up to max_attempts runs.
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { JDb, JobRow } from '../db/jobs-schema.ts';
import type { JobConfig } from './job-config.ts';
import { failureOf, insertJobRow, iso } from './job-rows.ts';
import type { AbortReason } from './job-rows.ts';
import { JobFailure } from './job-queue.ts';
import type { JobHandler, JobKind, JobQueue, JobUpdate, NewJob } from './job-queue.ts';

interface Running {
  job: JobRow;
  controller: AbortController;
  reason: AbortReason | null;
  done: Promise<void>;
}

export class DbJobQueue implements JobQueue {
  readonly events = new EventEmitter();
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly running = new Map<string, Running>();
  private timers: NodeJS.Timeout[] = [];
  private started = false;
  private pumping = false;

  constructor(
    private readonly db: JDb,
    private readonly config: JobConfig,
    private readonly handlers: Record<JobKind, JobHandler>,
    private readonly log: FastifyBaseLogger,
  ) {
    this.events.setMaxListeners(0);
  }

  notify(update: JobUpdate): void {
    this.events.emit('update', update);
  }

  async enqueue(db: JDb, job: NewJob): Promise<string> {
    const id = await insertJobRow(db, job, this.config.maxAttempts);
    return id;
  }

  wake(): void {
    if (this.started) void this.pump();
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
    return 'requested';
  }

  async start(): Promise<void> {
    if (this.started || this.config.concurrency === 0) return;
    this.started = true;
    await this.recoverExpired();
    this.timers.push(setInterval(() => void this.tick(), this.config.pollMs));
    this.timers.push(
      setInterval(() => void this.heartbeat(), Math.max(200, Math.floor(this.config.leaseMs / 3))),
    );
    for (const t of this.timers) t.unref();
    void this.pump();
  }

  /** Running jobs go back to the queue without using up an attempt: a deploy is not the job's fault. */
  async stop(): Promise<void> {
    this.started = false;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    const all = [...this.running.values()];
    for (const r of all) this.abort(r, 'shutdown');
    await Promise.allSettled(all.map((r) => r.done));
  }

  private async tick(): Promise<void> {
    try {
      await this.recoverExpired();
      await this.pump();
    } catch (err) {
      this.log.error({ err }, 'job queue tick failed');
    }
  }

  /** Jobs whose runner stopped renewing its lease: run again, or give up after max_attempts runs. */
  async recoverExpired(): Promise<number> {
    const expired = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('status', '=', 'processing')
      .where('lease_until', '<', iso())
      .execute();
    for (const job of expired) {
      if (this.running.has(job.id)) continue;
      if (job.attempts >= job.max_attempts) {
        if (await this.finish(job, 'failed', 'processing'))
          await this.handlers[job.kind].failed(job, new JobFailure('job_interrupted'));
      } else {
        const r = await this.db
          .updateTable('jobs')
          .set({ status: 'queued', worker_id: null, lease_until: null, updated_at: iso() })
          .where('id', '=', job.id)
          .where('status', '=', 'processing')
          .where('lease_until', '=', job.lease_until)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) === 1) {
          this.log.warn({ job: job.id, attempts: job.attempts }, 'job lease expired: queued again');
          await this.handlers[job.kind].requeued(job);
        }
      }
      this.notify({ alignmentId: job.alignment_id, videoId: job.video_id });
    }
    return expired.length;
  }

  private async claim(): Promise<JobRow | undefined> {
    const now = iso();
    return this.db
      .updateTable('jobs')
      .set({
        status: 'processing',
        attempts: sql<number>`attempts + 1`,
        worker_id: this.workerId,
        lease_until: iso(Date.now() + this.config.leaseMs),
        started_at: sql<string>`coalesce(started_at, ${now})`,
        updated_at: now,
      })
      .where(
        'id',
        '=',
        this.db
          .selectFrom('jobs')
          .select('id')
          .where('status', '=', 'queued')
          .orderBy('created_at')
          .orderBy('id')
          .limit(1),
      )
      .where('status', '=', 'queued')
      .returningAll()
      .executeTakeFirst();
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.started && this.running.size < this.config.concurrency) {
        const job = await this.claim();
        if (!job) break;
        this.launch(job);
      }
    } catch (err) {
      this.log.error({ err }, 'claiming a job failed');
    } finally {
      this.pumping = false;
    }
  }

  private launch(job: JobRow): void {
    const controller = new AbortController();
    const entry: Running = { job, controller, reason: null, done: Promise.resolve() };
    this.running.set(job.id, entry);
    const timer = setTimeout(() => this.abort(entry, 'timeout'), job.timeout_ms);
    entry.done = this.execute(entry).finally(() => {
      clearTimeout(timer);
      this.running.delete(job.id);
      if (this.started) void this.pump();
    });
  }

  private abort(entry: Running, reason: AbortReason): void {
    if (entry.reason) return;
    entry.reason = reason;
    entry.controller.abort(reason);
  }

  private async execute(entry: Running): Promise<void> {
    const { job } = entry;
    const handler = this.handlers[job.kind];
    const ctx = {
      signal: entry.controller.signal,
      progress: async () => this.notify({ alignmentId: job.alignment_id, videoId: job.video_id }),
    };
    try {
      await handler.run(job, ctx);
      if (entry.reason) throw new Error('aborted');
      await this.finish(job, 'completed');
    } catch (err) {
      await this.settleFailure(entry, err).catch((e: unknown) =>
        this.log.error({ err: e, job: job.id }, 'recording a job failure failed'),
      );
    }
    this.notify({ alignmentId: job.alignment_id, videoId: job.video_id });
  }

  private async settleFailure(entry: Running, err: unknown): Promise<void> {
    const { job } = entry;
    const handler = this.handlers[job.kind];
    if (entry.reason === 'cancel') {
      if (await this.finish(job, 'cancelled')) await handler.cancelled(job);
      return;
    }
    if (entry.reason === 'shutdown') {
      await this.db
        .updateTable('jobs')
        .set({
          status: 'queued',
          attempts: sql<number>`case when attempts > 0 then attempts - 1 else 0 end`,
          worker_id: null,
          lease_until: null,
          updated_at: iso(),
        })
        .where('id', '=', job.id)
        .where('status', '=', 'processing')
        .execute();
      await handler.requeued(job);
      return;
    }
    const failure = failureOf(entry.reason, err, this.log, job.id);
    if (failure.options.retry && job.attempts < job.max_attempts) {
      await this.db
        .updateTable('jobs')
        .set({ status: 'queued', worker_id: null, lease_until: null, updated_at: iso() })
        .where('id', '=', job.id)
        .execute();
      await handler.requeued(job);
      return;
    }
    if (await this.finish(job, 'failed')) await handler.failed(job, failure);
  }

  /** Moves a job to a final state if it is still where this runner left it. */
  private async finish(
    job: JobRow,
    status: 'completed' | 'failed' | 'cancelled',
    from: JobRow['status'] = 'processing',
  ): Promise<boolean> {
    const now = iso();
    const r = await this.db
      .updateTable('jobs')
      .set({ status, finished_at: now, updated_at: now, lease_until: null })
      .where('id', '=', job.id)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  private async heartbeat(): Promise<void> {
    if (this.running.size === 0) return;
    try {
      const ids = [...this.running.keys()];
      await this.db
        .updateTable('jobs')
        .set({ lease_until: iso(Date.now() + this.config.leaseMs) })
        .where('id', 'in', ids)
        .where('status', '=', 'processing')
        .execute();
      // A cancel sent to another process, or a job whose row went with its deleted alignment.
      const rows = await this.db
        .selectFrom('jobs')
        .select(['id', 'cancel_requested'])
        .where('id', 'in', ids)
        .execute();
      const cancelRequested = new Map(rows.map((r) => [r.id, r.cancel_requested === 1]));
      for (const id of ids) {
        const r = this.running.get(id);
        if (r && (cancelRequested.get(id) ?? true)) this.abort(r, 'cancel');
      }
    } catch (err) {
      this.log.error({ err }, 'job heartbeat failed');
    }
  }
}
