// The embedded transport: job ids come from polling the rows, so several processes (npm start, npm run
// worker) can share a database. Claiming, leases, heartbeats, settling and retries are the runner's
// (job-runner.ts); this file only decides when to look for work.
import type { FastifyBaseLogger } from 'fastify';
import type { JobConfig } from './job-config.ts';
import { iso } from './job-rows.ts';
import { insertJobRow } from '../db/jobs.ts';
import type { JobHandler, JobKind, JobQueue, JobUpdate, NewJob } from './job-queue.ts';
import { JobRunner } from './job-runner.ts';
import { logFailure } from '../reliability/unavailable.ts';
import type { Db } from '../db/database.ts';

export class DbJobQueue implements JobQueue {
  private readonly runner: JobRunner;
  private timers: NodeJS.Timeout[] = [];
  private started = false;
  private pumping = false;

  constructor(
    private readonly db: Db,
    private readonly config: JobConfig,
    handlers: Record<JobKind, JobHandler>,
    private readonly log: FastifyBaseLogger,
  ) {
    this.runner = new JobRunner(db, config, handlers, log);
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

  enqueue(db: Db, job: NewJob): Promise<string> {
    return insertJobRow(db, job, this.config.maxAttempts, iso());
  }

  wake(): void {
    if (this.started) void this.pump();
  }

  async cancel(jobId: string): Promise<'cancelled' | 'requested' | 'not_cancellable'> {
    const outcome = await this.runner.cancel(jobId);
    return outcome === 'cancelled_queued' ? 'cancelled' : outcome;
  }

  async start(): Promise<void> {
    if (this.started || this.config.concurrency === 0) return;
    this.started = true;
    await this.recoverExpired();
    this.timers.push(setInterval(() => void this.tick(), this.config.pollMs));
    for (const t of this.timers) t.unref();
    this.runner.startHeartbeat();
    void this.pump();
  }

  async stop(): Promise<void> {
    this.started = false;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await this.runner.stop();
  }

  private async tick(): Promise<void> {
    try {
      await this.recoverExpired();
      await this.pump();
    } catch (err) {
      logFailure(this.log, 'error', err, 'job queue tick failed');
    }
  }

  /** Jobs whose runner stopped renewing its lease: run again, or give up after max_attempts runs. */
  async recoverExpired(): Promise<number> {
    const expired = await this.runner.expiredRows();
    for (const row of expired) await this.runner.recoverExpired(row);
    return expired.length;
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.started && this.runner.size < this.config.concurrency) {
        const job = await this.runner.claimNext();
        if (!job) break;
        void this.runner.run(job).then((r) => {
          // a retry waits for its backoff: look again then rather than at the next poll
          if (r.end === 'handed_back' && r.runAfter !== null) this.wakeAt(r.runAfter);
          if (this.started) void this.pump();
        });
      }
    } catch (err) {
      logFailure(this.log, 'error', err, 'claiming a job failed');
    } finally {
      this.pumping = false;
    }
  }

  private wakeAt(ms: number): void {
    const t = setTimeout(() => this.wake(), Math.max(0, ms - Date.now()) + 10);
    t.unref();
  }
}
