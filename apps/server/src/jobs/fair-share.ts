// Who runs next (issue 27, item 4). Alignments cost a quota unit; videos and re-alignments cost none,
// so nothing but these rules keeps one user's free work from filling every worker:
// - a job that took a quota unit goes before any free job, so free work delays a paying job by at most
//   the length of a job already running;
// - among jobs of one class, each user's jobs take turns: a job's rank is the number of its user's jobs
//   of that class running or queued before it, and lower ranks go first (then the oldest);
// - a user runs at most one free job of each kind at a time, and keeps at most FREE_JOBS_PER_KIND of
//   each kind queued or running (the routes refuse more: 429 too_many_free_jobs).
// The runner applies the rank when it polls the rows (claimNext) and the running cap whenever it claims;
// BullMQ, which picks the job it delivers, gets the same rank as the job's priority.
import { sql } from 'kysely';
import type { Expression, SqlBool } from 'kysely';
import { createError } from '../errors.ts';
import type { Db } from '../db/database.ts';
import type { JobRow } from '../db/schema.ts';

export type JobKind = JobRow['kind'];

/** Kinds that use no quota unit. */
export const FREE_KINDS: readonly JobKind[] = ['video', 'realign'];
/** Free jobs of one kind a user may have queued or running. */
export const FREE_JOBS_PER_KIND = 3;

export const isFree = (kind: JobKind): boolean => FREE_KINDS.includes(kind);

/** 0 for jobs that took a quota unit, 1 for free ones, as SQL over the jobs alias `j`. */
const jobClass = (alias: string) =>
  sql<number>`(case when ${sql.ref(`${alias}.kind`)} = 'align' then 0 else 1 end)`;

/**
 * The rank of job `j` (whose alignment is `a`) among its user's jobs of the same class: those running,
 * and those queued before it. A correlated subquery: queues are short, and both databases plan it alike.
 */
export const fairRank = sql<number>`(
  select count(*) from jobs q inner join alignments qa on qa.id = q.alignment_id
  where qa.user_id = a.user_id
    and ${jobClass('q')} = ${jobClass('j')}
    and (q.status = 'processing'
      or (q.status = 'queued' and (q.created_at < j.created_at or (q.created_at = j.created_at and q.id < j.id))))
)`;

/** The class of `j`, to order paying jobs first. */
export const fairClass = jobClass('j');

/**
 * True when job `j` (alignment `a`) may start: a paying job always; a free one when its user runs no
 * job of that kind.
 */
export const mayStart: Expression<SqlBool> = sql<SqlBool>`(j.kind = 'align' or not exists (
  select 1 from jobs r inner join alignments ra on ra.id = r.alignment_id
  where r.status = 'processing' and r.kind = j.kind and ra.user_id = a.user_id
))`;

/** BullMQ priorities (1 is the highest; jobs of the paying class stay under FREE_PRIORITY). */
const FREE_PRIORITY = 1_048_576;
const MAX_RANK = 1_000_000;

/** The BullMQ priority of each job: its class, then its rank, as the database poll orders them. */
export async function dispatchPriorities(db: Db, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('jobs as j')
    .innerJoin('alignments as a', 'a.id', 'j.alignment_id')
    .select(['j.id', 'j.kind', fairRank.as('rank')])
    .where('j.id', 'in', ids)
    .execute();
  return new Map(
    rows.map((r) => [r.id, (isFree(r.kind) ? FREE_PRIORITY : 1) + Math.min(Number(r.rank), MAX_RANK)]),
  );
}

/**
 * Refuses a new free job of `kind` when the user already has FREE_JOBS_PER_KIND of that kind queued or
 * running: 429 too_many_free_jobs, before anything is written.
 */
export async function assertFreeJobRoom(db: Db, userId: string, kind: JobKind): Promise<void> {
  const row = await db
    .selectFrom('jobs as j')
    .innerJoin('alignments as a', 'a.id', 'j.alignment_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('a.user_id', '=', userId)
    .where('j.kind', '=', kind)
    .where('j.status', 'in', ['queued', 'processing'])
    .executeTakeFirst();
  const n = Number(row?.n ?? 0);
  if (n < FREE_JOBS_PER_KIND) return;
  const what = kind === 'video' ? 'videos' : 're-alignments';
  throw createError(
    kind === 'video' ? 'too_many_videos' : 'too_many_realignments',
    { count: n, max: FREE_JOBS_PER_KIND },
    { non_field_errors: [`At most ${FREE_JOBS_PER_KIND} ${what} may wait or run at once.`] },
  );
}
