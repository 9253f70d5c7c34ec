// Writing a job row, and what an ended run's error means; job-runner.ts does the rest of a job's life.
import { randomUUID } from 'node:crypto';
import { JobFailure } from './job-queue.ts';
import type { NewJob } from './job-queue.ts';
import type { Db } from '../db/database.ts';

/** Why a run was stopped: `lost` means another runner took the row over (this one's lease ran out). */
export type AbortReason = 'cancel' | 'timeout' | 'shutdown' | 'lost';

export const iso = (ms: number = Date.now()): string => new Date(ms).toISOString();

/** Writes a queued job row with the caller's connection; returns its id. */
export async function insertJobRow(db: Db, job: NewJob, maxAttempts: number): Promise<string> {
  const id = randomUUID();
  const now = iso();
  await db
    .insertInto('jobs')
    .values({
      id,
      kind: job.kind,
      alignment_id: job.alignmentId,
      video_id: job.videoId ?? null,
      status: 'queued',
      attempts: 0,
      max_attempts: maxAttempts,
      timeout_ms: job.timeoutMs,
      lease_until: null,
      worker_id: null,
      cancel_requested: 0,
      failures: 0,
      run_after: null,
      created_at: now,
      updated_at: now,
      started_at: null,
      finished_at: null,
    })
    .execute();
  return id;
}

/**
 * The failure a run ended with (not for cancel or shutdown): a time-out, what the handler recognised,
 * or an unexpected crash (quota given back; the runner logs it with its stack).
 */
export function failureOf(reason: AbortReason | null, err: unknown): JobFailure {
  if (reason === 'timeout') return new JobFailure('timeout');
  if (err instanceof JobFailure) return err;
  return new JobFailure('alignment_failed', {}, { refund: true, cause: err });
}
