// The queue as the routes see it. The embedded implementation (db-job-queue.ts) keeps jobs in the
// database and runs them on worker threads; with REDIS_URL, bull-job-queue.ts replaces it behind this
// interface (jobs stay rows: BullMQ carries the dispatch and notices dead workers).
import type { EventEmitter } from 'node:events';
import type { ErrorCode } from '@tazamun/contracts/errors';
import type { ProcessingStep } from '@tazamun/contracts/alignments';
import type { Db } from '../db/database.ts';
import type { JobRow } from '../db/schema.ts';

export type JobKind = JobRow['kind'];

export interface NewJob {
  kind: JobKind;
  /** whose work it is */
  userId: string;
  /** null for an adaptation (it works on a project's corpus: `modelId`) */
  alignmentId: string | null;
  videoId?: string | null;
  modelId?: string | null;
  timeoutMs: number;
}

/** Emitted on `events` as 'update' whenever a job changes what a client can see. */
export interface JobUpdate {
  alignmentId: string | null;
  videoId: string | null;
  modelId?: string | null;
}

export interface JobQueue {
  readonly events: EventEmitter;
  /** Writes the job row with the caller's connection, so it commits with the row it works on. */
  enqueue(db: Db, job: NewJob): Promise<string>;
  /** Call after the enqueuing transaction committed. */
  wake(): void;
  /** Cancels a queued job at once, a running one as soon as its worker sees the request. */
  cancel(jobId: string): Promise<'cancelled' | 'requested' | 'not_cancellable'>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A failure the handler recognised. `refund` gives the quota unit back; `retry` runs the job once more
 * (after the runner's backoff); `cause` is what the log shows, with its stack.
 */
export class JobFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly params: Record<string, string | number> = {},
    readonly options: { refund: boolean; retry?: boolean; cause?: unknown } = { refund: true },
  ) {
    super(code, options.cause === undefined ? undefined : { cause: options.cause });
  }
}

/**
 * A run stopped because its job was aborted (cancelled, timed out, shut down or taken over). The runner
 * decides what that means from its own record of why it aborted; this only ends the handler's work.
 */
export class JobAborted extends Error {
  constructor(readonly reason: unknown = undefined) {
    super('the job was aborted');
    this.name = 'JobAborted';
  }
}

export interface JobContext {
  signal: AbortSignal;
  progress(step: ProcessingStep | null, percent: number): Promise<void>;
  /**
   * Records what the finished work produced (the result file, the final row). From the first call the
   * work is done: the job's time limit no longer applies, and a write that meets the database, the file
   * store or the disk away or full is kept in memory and tried again until it lands, rather than
   * throwing the work away (a cancel, a shutdown or a takeover still ends the wait).
   */
  persist<T>(what: string, write: () => Promise<T>): Promise<T>;
}

/** What a kind of job does, and how its domain row follows the job's end. */
export interface JobHandler {
  run(job: JobRow, ctx: JobContext): Promise<void>;
  failed(job: JobRow, failure: JobFailure): Promise<void>;
  cancelled(job: JobRow): Promise<void>;
  requeued(job: JobRow): Promise<void>;
  /** The run's end could not be recorded (the database stayed away through a shutdown): the row is left
   * as it is for a later recovery. For logs and metrics only; nothing may be written. */
  abandoned?(job: JobRow, err: unknown): void;
}
