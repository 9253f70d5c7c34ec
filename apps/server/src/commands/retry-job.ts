// An operator's retry of a failed job (admin API and admin CLI): the job row and what it works on (the
// alignment, or the video) queued again in one transaction.
import type { AdminJob } from '@tazamun/contracts/admin-jobs';
import { findAlignment, resetAlignmentForRetry } from '../db/alignments.ts';
import type { Db } from '../db/database.ts';
import { findJobRow, restartFailedJob } from '../db/jobs.ts';
import { updateModel } from '../db/models.ts';
import { requeueVideo } from '../db/videos.ts';
import { createError } from '../errors.ts';
import { findJob } from '../jobs/job-admin.ts';
import { jobTimeoutMs } from '../jobs/job-config.ts';
import type { JobConfig } from '../jobs/job-config.ts';
import { iso } from '../jobs/job-rows.ts';

/**
 * A failed job runs again: its attempts start over and its time limit is computed from the current
 * settings (an operator who raised JOB_TIMEOUT_BASE after time-outs wants the new one). The quota is
 * not charged again: a unit given back on failure stays given back. The caller wakes the queue; other
 * processes find the row by their poll (database queue) or their reconciler (BullMQ).
 */
export async function retryJob(db: Db, config: JobConfig, id: string): Promise<AdminJob> {
  await db.transaction().execute(async (trx) => {
    const job = await findJobRow(trx, id);
    if (!job) throw createError('not_found');
    if (job.status !== 'failed') throw createError('job_not_retryable', { status: job.status });
    const now = iso();
    let timeoutMs = job.timeout_ms;
    if (job.kind === 'align' && job.alignment_id) {
      const a = await findAlignment(trx, job.alignment_id);
      timeoutMs = jobTimeoutMs(config, a?.duration ?? 0);
      await resetAlignmentForRetry(trx, job.alignment_id, now);
    } else if (job.video_id) {
      await requeueVideo(trx, job.video_id);
    } else if (job.model_id) {
      await updateModel(
        trx,
        job.model_id,
        { status: 'queued', progress: 0, error_code: null, error_params: null, updated_at: now },
        ['failed'],
      );
    }
    if (!(await restartFailedJob(trx, id, timeoutMs, now)))
      throw createError('job_not_retryable', { status: 'changing' });
  });
  return findJob(db, id);
}
