// What an ended run's error means, and the clock the job rows are written with; job-runner.ts does the
// rest of a job's life and db/jobs.ts its queries.
import { JobFailure } from './job-queue.ts';

/** Why a run was stopped: `lost` means another runner took the row over (this one's lease ran out). */
export type AbortReason = 'cancel' | 'timeout' | 'shutdown' | 'lost';

export const iso = (ms: number = Date.now()): string => new Date(ms).toISOString();

/**
 * The failure a run ended with (not for cancel or shutdown): a time-out, what the handler recognised,
 * or an unexpected crash (quota given back; the runner logs it with its stack).
 */
export function failureOf(reason: AbortReason | null, err: unknown): JobFailure {
  if (reason === 'timeout') return new JobFailure('timeout');
  if (err instanceof JobFailure) return err;
  return new JobFailure('alignment_failed', {}, { refund: true, cause: err });
}
