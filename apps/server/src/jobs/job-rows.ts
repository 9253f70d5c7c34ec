// What both queue implementations (embedded and BullMQ) do the same way to a job row: write it, and
// decide what an ended run's error means. How a row is claimed, leased and handed back differs.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { JDb } from '../db/jobs-schema.ts';
import { JobFailure } from './job-queue.ts';
import type { NewJob } from './job-queue.ts';

export type AbortReason = 'cancel' | 'timeout' | 'shutdown';

export const iso = (ms: number = Date.now()): string => new Date(ms).toISOString();

/** Writes a queued job row with the caller's connection; returns its id. */
export async function insertJobRow(db: JDb, job: NewJob, maxAttempts: number): Promise<string> {
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
      created_at: now,
      updated_at: now,
      started_at: null,
      finished_at: null,
    })
    .execute();
  return id;
}

/**
 * The failure a run ended with (not for cancel or shutdown): a time-out, what the handler recognised, or
 * an unexpected crash (logged, quota given back).
 */
export function failureOf(
  reason: AbortReason | null,
  err: unknown,
  log: FastifyBaseLogger,
  jobId: string,
): JobFailure {
  if (reason === 'timeout') return new JobFailure('timeout');
  if (err instanceof JobFailure) return err;
  log.error({ err, job: jobId }, 'job crashed');
  return new JobFailure('alignment_failed', {}, { refund: true });
}
