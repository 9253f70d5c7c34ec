// Job administration shared by the admin API and the admin CLI: the list an operator reads (status,
// the engine's error, the worker, attempts and timings) and a retry of a failed job. Cancelling goes
// through the queue's own cancel(), which knows about running jobs and gives quota back.
import type { AdminJob, AdminJobStatus } from '@tazamun/contracts/admin-jobs';
import { createError } from '../errors.ts';
import { iso } from './job-rows.ts';
import { jobTimeoutMs } from './job-config.ts';
import type { JobConfig } from './job-config.ts';
import type { Db } from '../db/database.ts';

export const ADMIN_JOB_LIST_MAX = 200;

function jobQuery(db: Db) {
  return db
    .selectFrom('jobs')
    .innerJoin('alignments', 'alignments.id', 'jobs.alignment_id')
    .leftJoin('users', 'users.id', 'alignments.user_id')
    .leftJoin('videos', 'videos.id', 'jobs.video_id')
    .select([
      'jobs.id',
      'jobs.kind',
      'jobs.status',
      'jobs.alignment_id',
      'jobs.video_id',
      'alignments.title',
      'alignments.language',
      'users.email as user_email',
      'jobs.attempts',
      'jobs.max_attempts',
      'jobs.worker_id',
      'alignments.error_code as alignment_error',
      'videos.error_code as video_error',
      'jobs.last_error',
      'jobs.cancel_requested',
      'jobs.created_at',
      'jobs.started_at',
      'jobs.finished_at',
      'jobs.updated_at',
      'jobs.lease_until',
    ]);
}

type JobQueryRow = Awaited<ReturnType<ReturnType<typeof jobQuery>['executeTakeFirstOrThrow']>>;

function present(r: JobQueryRow): AdminJob {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    alignment_id: r.alignment_id,
    video_id: r.video_id,
    title: r.title,
    language: r.language,
    user_email: r.user_email,
    attempts: Number(r.attempts),
    max_attempts: Number(r.max_attempts),
    worker_id: r.worker_id,
    // the code only means something once the job failed (an alignment keeps its last one)
    error_code:
      r.status === 'failed' ? ((r.kind === 'video' ? r.video_error : r.alignment_error) ?? null) : null,
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
  const rows = await jobQuery(db)
    .where('jobs.status', 'in', status ? [status] : ['queued', 'processing', 'failed'])
    .orderBy('jobs.created_at', 'desc')
    .orderBy('jobs.id')
    .limit(limit)
    .execute();
  return rows.map(present);
}

export async function findJob(db: Db, id: string): Promise<AdminJob> {
  const row = await jobQuery(db).where('jobs.id', '=', id).executeTakeFirst();
  if (!row) throw createError('not_found');
  return present(row);
}

/**
 * A failed job runs again: its attempts start over and its time limit is computed from the current
 * settings (an operator who raised JOB_TIMEOUT_BASE after time-outs wants the new one). The quota is
 * not charged again: a unit given back on failure stays given back. The caller wakes the queue; other
 * processes find the row by their poll (database queue) or their reconciler (BullMQ).
 */
export async function retryJob(db: Db, config: JobConfig, id: string): Promise<AdminJob> {
  await db.transaction().execute(async (trx) => {
    const job = await trx.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    if (!job) throw createError('not_found');
    if (job.status !== 'failed') throw createError('job_not_retryable', { status: job.status });
    const now = iso();
    let timeoutMs = job.timeout_ms;
    if (job.kind === 'align') {
      const a = await trx
        .selectFrom('alignments')
        .select('duration')
        .where('id', '=', job.alignment_id)
        .executeTakeFirst();
      timeoutMs = jobTimeoutMs(config, a?.duration ?? 0);
      await trx
        .updateTable('alignments')
        .set({
          status: 'queued',
          step: null,
          progress: 0,
          error_code: null,
          error_params: null,
          updated_at: now,
        })
        .where('id', '=', job.alignment_id)
        .execute();
    } else if (job.video_id) {
      await trx
        .updateTable('videos')
        .set({ status: 'queued', progress: 0, error_code: null })
        .where('id', '=', job.video_id)
        .execute();
    }
    const r = await trx
      .updateTable('jobs')
      .set({
        status: 'queued',
        attempts: 0,
        // a fresh start: the engine-fault retry and its backoff begin again (job-runner.ts)
        failures: 0,
        run_after: null,
        timeout_ms: timeoutMs,
        worker_id: null,
        lease_until: null,
        cancel_requested: 0,
        started_at: null,
        finished_at: null,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('status', '=', 'failed')
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw createError('job_not_retryable', { status: 'changing' });
  });
  return findJob(db, id);
}
