// Job administration shared by the admin API and the admin CLI: the list an operator reads (status,
// the engine's error, the worker, attempts and timings). A retry of a failed job is a command
// (commands/retry-job.ts); cancelling goes through the queue's own cancel(), which knows about running
// jobs and gives quota back.
import type { AdminJob, AdminJobStatus } from '@tazamun/contracts/admin-jobs';
import { createError } from '../errors.ts';
import { findAdminJobRow, listAdminJobRows } from '../db/jobs.ts';
import type { AdminJobRow } from '../db/jobs.ts';
import type { Db } from '../db/database.ts';

export const ADMIN_JOB_LIST_MAX = 200;

function present(r: AdminJobRow): AdminJob {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    alignment_id: r.alignment_id,
    video_id: r.video_id,
    model_id: r.model_id,
    title: r.title,
    language: r.language,
    user_email: r.user_email,
    attempts: Number(r.attempts),
    max_attempts: Number(r.max_attempts),
    worker_id: r.worker_id,
    // the code only means something once the job failed (an alignment keeps its last one)
    error_code:
      r.status === 'failed'
        ? ((r.kind === 'video' ? r.video_error : r.kind === 'adapt' ? r.model_error : r.alignment_error) ??
          null)
        : null,
    last_error: r.last_error,
    cancel_requested: Number(r.cancel_requested) === 1,
    created_at: r.created_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
    updated_at: r.updated_at,
    lease_until: r.lease_until,
  };
}

/** Newest first; by default the jobs that need an eye (waiting, running, failed). */
export async function listJobs(
  db: Db,
  status?: AdminJobStatus,
  limit = ADMIN_JOB_LIST_MAX,
): Promise<AdminJob[]> {
  return (await listAdminJobRows(db, status, limit)).map(present);
}

export async function findJob(db: Db, id: string): Promise<AdminJob> {
  const row = await findAdminJobRow(db, id);
  if (!row) throw createError('not_found');
  return present(row);
}
