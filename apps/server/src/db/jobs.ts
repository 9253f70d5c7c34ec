// The jobs repository: every query over job rows. The runner (jobs/job-runner.ts) decides a job's life;
// these are its reads and writes, each keyed as the runner needs (by worker id after a claim, by the
// expired lease for a recovery), plus the fair order of claims (jobs/fair-share.ts says why), the
// operator's list, and the figures readiness and metrics read.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Expression, SqlBool } from 'kysely';
import type { AdminJobStatus } from '@tazamun/contracts/admin-jobs';
import type { Db } from './database.ts';
import type { JobRow } from './schema.ts';

export type JobKind = JobRow['kind'];

/** A job to write: whose it is, what it works on and its time limit. */
export interface NewJobRow {
  kind: JobKind;
  userId: string;
  /** null for an adaptation (it works on a project's corpus, `modelId`) */
  alignmentId: string | null;
  videoId?: string | null;
  modelId?: string | null;
  timeoutMs: number;
}

/** Writes a queued job row with the caller's connection (a transaction's, usually); returns its id. */
export async function insertJobRow(
  db: Db,
  job: NewJobRow,
  maxAttempts: number,
  nowIso: string,
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('jobs')
    .values({
      id,
      kind: job.kind,
      user_id: job.userId,
      alignment_id: job.alignmentId,
      video_id: job.videoId ?? null,
      model_id: job.modelId ?? null,
      status: 'queued',
      attempts: 0,
      max_attempts: maxAttempts,
      timeout_ms: job.timeoutMs,
      lease_until: null,
      worker_id: null,
      cancel_requested: 0,
      failures: 0,
      run_after: null,
      created_at: nowIso,
      updated_at: nowIso,
      started_at: null,
      finished_at: null,
    })
    .execute();
  return id;
}

export function findJobRow(db: Db, id: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

// ---- the fair order (jobs/fair-share.ts) ----

/** 0 for jobs that took a quota unit, 1 for free ones, as SQL over the jobs alias given. */
const jobClass = (alias: string) =>
  sql<number>`(case when ${sql.ref(`${alias}.kind`)} = 'align' then 0 else 1 end)`;

/**
 * The rank of job `j` among its user's jobs of the same class: those running, and those queued before
 * it. A correlated subquery: queues are short, and both databases plan it alike.
 */
const fairRank = sql<number>`(
  select count(*) from jobs q
  where q.user_id = j.user_id
    and ${jobClass('q')} = ${jobClass('j')}
    and (q.status = 'processing'
      or (q.status = 'queued' and (q.created_at < j.created_at or (q.created_at = j.created_at and q.id < j.id))))
)`;

/** The class of `j`, to order paying jobs first. */
const fairClass = jobClass('j');

/**
 * True when job `j` may start: a paying job always; a free one (a video, a re-alignment, an adaptation)
 * when its user runs no job of that kind.
 */
const mayStart: Expression<SqlBool> = sql<SqlBool>`(j.kind = 'align' or not exists (
  select 1 from jobs r
  where r.status = 'processing' and r.kind = j.kind and r.user_id = j.user_id
))`;

/** Each job's class (free or not) and rank among its user's jobs of that class. */
export async function jobRanks(
  db: Db,
  ids: string[],
): Promise<{ id: string; kind: JobKind; rank: number }[]> {
  const rows = await db
    .selectFrom('jobs as j')
    .select(['j.id', 'j.kind', fairRank.as('rank')])
    .where('j.id', 'in', ids)
    .execute();
  return rows.map((r) => ({ id: r.id, kind: r.kind, rank: Number(r.rank) }));
}

/** The user's jobs of this kind that are queued or running. */
export async function countActiveJobs(db: Db, userId: string, kind: JobKind): Promise<number> {
  const row = await db
    .selectFrom('jobs as j')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('j.user_id', '=', userId)
    .where('j.kind', '=', kind)
    .where('j.status', 'in', ['queued', 'processing'])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

// ---- claims, leases and settling (jobs/job-runner.ts) ----

/** Who claims, and until when the claim holds without a renewal. */
export interface Claimant {
  workerId: string;
  leaseUntil: string;
  nowIso: string;
}

function claimSet(c: Claimant) {
  return {
    status: 'processing' as const,
    attempts: sql<number>`attempts + 1`,
    worker_id: c.workerId,
    lease_until: c.leaseUntil,
    run_after: null,
    started_at: sql<string>`coalesce(started_at, ${c.nowIso})`,
    updated_at: c.nowIso,
  };
}

/**
 * Claims the next queued job whose backoff is over, in the fair order: paying jobs first, each user's
 * jobs taking turns, a user's free job not while that user runs one of its kind.
 */
export function claimNextJob(db: Db, c: Claimant): Promise<JobRow | undefined> {
  return db
    .updateTable('jobs')
    .set(claimSet(c))
    .where(
      'id',
      '=',
      db
        .selectFrom('jobs as j')
        .select('j.id')
        .where('j.status', '=', 'queued')
        .where((eb) => eb.or([eb('j.run_after', 'is', null), eb('j.run_after', '<=', c.nowIso)]))
        .where(mayStart)
        .orderBy(fairClass)
        .orderBy(fairRank)
        .orderBy('j.created_at')
        .orderBy('j.id')
        .limit(1),
    )
    .where('status', '=', 'queued')
    .returningAll()
    .executeTakeFirst();
}

/** Claims this queued job if it may start now (the fair rule); undefined otherwise. */
export function claimJob(db: Db, jobId: string, c: Claimant): Promise<JobRow | undefined> {
  return db
    .updateTable('jobs')
    .set(claimSet(c))
    .where('id', '=', jobId)
    .where('status', '=', 'queued')
    .where('id', 'in', db.selectFrom('jobs as j').select('j.id').where('j.id', '=', jobId).where(mayStart))
    .returningAll()
    .executeTakeFirst();
}

export async function jobStatus(db: Db, jobId: string): Promise<JobRow['status'] | undefined> {
  const row = await db.selectFrom('jobs').select('status').where('id', '=', jobId).executeTakeFirst();
  return row?.status;
}

/** Rows a dispatcher must know of: queued, or processing past their lease (oldest first, at most `limit`). */
export function jobsToDispatch(db: Db, nowIso: string, limit: number) {
  return db
    .selectFrom('jobs')
    .select(['id', 'kind', 'status'])
    .where((eb) =>
      eb.or([
        eb('status', '=', 'queued'),
        eb.and([eb('status', '=', 'processing'), eb('lease_until', '<', nowIso)]),
      ]),
    )
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** Processing rows whose runner stopped renewing the lease. */
export function expiredJobs(db: Db, nowIso: string): Promise<JobRow[]> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('status', '=', 'processing')
    .where('lease_until', '<', nowIso)
    .execute();
}

/** A dead runner's row queued again, keyed by its expired lease: false when another process acted first. */
export async function requeueExpiredJob(db: Db, row: JobRow, nowIso: string): Promise<boolean> {
  const r = await db
    .updateTable('jobs')
    .set({ status: 'queued', worker_id: null, lease_until: null, updated_at: nowIso })
    .where('id', '=', row.id)
    .where('status', '=', 'processing')
    .where('lease_until', '=', row.lease_until)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** A dead runner's row failed after its last attempt, keyed by its expired lease. */
export async function failExpiredJob(db: Db, row: JobRow, nowIso: string): Promise<boolean> {
  const r = await db
    .updateTable('jobs')
    .set({ status: 'failed', finished_at: nowIso, updated_at: nowIso, lease_until: null })
    .where('id', '=', row.id)
    .where('status', '=', 'processing')
    .where('lease_until', '=', row.lease_until)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Back to queued if this worker still owns the row: the attempt given back (not the job's doing), or a
 * failure counted (a retry); `runAfter` is the retry's backoff deadline.
 */
export async function handBackJob(
  db: Db,
  jobId: string,
  workerId: string,
  how: { giveAttemptBack: boolean; runAfter: string | null },
  nowIso: string,
): Promise<boolean> {
  const r = await db
    .updateTable('jobs')
    .set({
      status: 'queued',
      ...(how.giveAttemptBack
        ? { attempts: sql<number>`case when attempts > 0 then attempts - 1 else 0 end` }
        : { failures: sql<number>`failures + 1` }),
      worker_id: null,
      lease_until: null,
      run_after: how.runAfter,
      updated_at: nowIso,
    })
    .where('id', '=', jobId)
    .where('status', '=', 'processing')
    .where('worker_id', '=', workerId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Moves a job to a final state if this worker still owns it; `failed` counts a failure. */
export async function finishJob(
  db: Db,
  jobId: string,
  workerId: string,
  status: 'completed' | 'failed' | 'cancelled',
  opts: { failed?: boolean },
  nowIso: string,
): Promise<boolean> {
  const r = await db
    .updateTable('jobs')
    .set({
      status,
      finished_at: nowIso,
      updated_at: nowIso,
      lease_until: null,
      // the errors of earlier runs (a full disk, a fault retried) are no longer this job's story
      ...(status === 'completed' ? { last_error: null } : {}),
      ...(opts.failed ? { failures: sql<number>`failures + 1` } : {}),
    })
    .where('id', '=', jobId)
    .where('status', '=', 'processing')
    .where('worker_id', '=', workerId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Renews the leases of this worker's running jobs, then reads what became of each (cancel, owner). */
export async function renewLeases(
  db: Db,
  ids: string[],
  workerId: string,
  leaseUntil: string,
): Promise<{ id: string; cancel_requested: number; worker_id: string | null }[]> {
  await db
    .updateTable('jobs')
    .set({ lease_until: leaseUntil })
    .where('id', 'in', ids)
    .where('status', '=', 'processing')
    .where('worker_id', '=', workerId)
    .execute();
  return db
    .selectFrom('jobs')
    .select(['id', 'cancel_requested', 'worker_id'])
    .where('id', 'in', ids)
    .execute();
}

/** Cancels a queued job at once; undefined when it was not queued. */
export function cancelQueuedJob(db: Db, jobId: string, nowIso: string): Promise<JobRow | undefined> {
  return db
    .updateTable('jobs')
    .set({ status: 'cancelled', finished_at: nowIso, updated_at: nowIso })
    .where('id', '=', jobId)
    .where('status', '=', 'queued')
    .returningAll()
    .executeTakeFirst();
}

/** Asks a running job to stop (its runner sees it at its next heartbeat); false when it was not running. */
export async function requestJobCancel(db: Db, jobId: string, nowIso: string): Promise<boolean> {
  const r = await db
    .updateTable('jobs')
    .set({ cancel_requested: 1, updated_at: nowIso })
    .where('id', '=', jobId)
    .where('status', '=', 'processing')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The engine's (or the run's) error message, kept on the row for the operator's list. */
export async function recordLastError(db: Db, jobId: string, error: string): Promise<void> {
  await db.updateTable('jobs').set({ last_error: error }).where('id', '=', jobId).execute();
}

// ---- the operator's list (jobs/job-admin.ts) ----

function adminJobQuery(db: Db) {
  return db
    .selectFrom('jobs')
    .leftJoin('alignments', 'alignments.id', 'jobs.alignment_id')
    .leftJoin('users', 'users.id', 'jobs.user_id')
    .leftJoin('videos', 'videos.id', 'jobs.video_id')
    .leftJoin('models', 'models.id', 'jobs.model_id')
    .leftJoin('projects', 'projects.id', 'models.project_id')
    .select([
      'jobs.id',
      'jobs.kind',
      'jobs.status',
      'jobs.alignment_id',
      'jobs.video_id',
      'jobs.model_id',
      // an adaptation has no alignment: its project's name and the model's language stand in
      sql<string | null>`coalesce(alignments.title, projects.name)`.as('title'),
      sql<string | null>`coalesce(alignments.language, models.language)`.as('language'),
      'users.email as user_email',
      'jobs.attempts',
      'jobs.max_attempts',
      'jobs.worker_id',
      'alignments.error_code as alignment_error',
      'videos.error_code as video_error',
      'models.error_code as model_error',
      'jobs.last_error',
      'jobs.cancel_requested',
      'jobs.created_at',
      'jobs.started_at',
      'jobs.finished_at',
      'jobs.updated_at',
      'jobs.lease_until',
    ]);
}

export type AdminJobRow = Awaited<ReturnType<ReturnType<typeof adminJobQuery>['executeTakeFirstOrThrow']>>;

/** Newest first; by default the jobs that need an eye (waiting, running, failed). */
export function listAdminJobRows(
  db: Db,
  status: AdminJobStatus | undefined,
  limit: number,
): Promise<AdminJobRow[]> {
  return adminJobQuery(db)
    .where('jobs.status', 'in', status ? [status] : ['queued', 'processing', 'failed'])
    .orderBy('jobs.created_at', 'desc')
    .orderBy('jobs.id')
    .limit(limit)
    .execute();
}

export function findAdminJobRow(db: Db, id: string): Promise<AdminJobRow | undefined> {
  return adminJobQuery(db).where('jobs.id', '=', id).executeTakeFirst();
}

/** A failed job queued again from its start: attempts and the fault retry begin again. */
export async function restartFailedJob(
  db: Db,
  id: string,
  timeoutMs: number,
  nowIso: string,
): Promise<boolean> {
  const r = await db
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
      updated_at: nowIso,
    })
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

// ---- figures (routes/system/readiness.ts, metrics/metrics.ts) ----

/** Jobs running and queued, and when the oldest queued one was made. */
export async function backlog(db: Db): Promise<{ running: number; queued: number; oldest: string | null }> {
  const row = await db
    .selectFrom('jobs')
    .select([
      sql<number>`sum(case when status = 'processing' then 1 else 0 end)`.as('running'),
      sql<number>`sum(case when status = 'queued' then 1 else 0 end)`.as('queued'),
      sql<string | null>`min(case when status = 'queued' then created_at end)`.as('oldest'),
    ])
    .where('status', 'in', ['queued', 'processing'])
    .executeTakeFirst();
  return {
    running: Number(row?.running ?? 0),
    queued: Number(row?.queued ?? 0),
    oldest: row?.oldest ?? null,
  };
}

/** Queued and failed jobs by kind and status. */
export function waitingJobCounts(db: Db) {
  return db
    .selectFrom('jobs')
    .select(['kind', 'status', sql<number>`count(*)`.as('n')])
    .where('status', 'in', ['queued', 'failed'])
    .groupBy(['kind', 'status'])
    .execute();
}

/** Running jobs by kind and the worker holding them. */
export function runningJobCounts(db: Db) {
  return db
    .selectFrom('jobs')
    .select(['kind', 'worker_id', sql<number>`count(*)`.as('n')])
    .where('status', '=', 'processing')
    .groupBy(['kind', 'worker_id'])
    .execute();
}
