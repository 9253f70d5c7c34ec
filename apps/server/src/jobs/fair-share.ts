// Who runs next (issue 27, item 4). Alignments cost a quota unit; videos, re-alignments and model
// adaptations (which the routes also keep to one per user at a time: commands/adaptation.ts) cost none,
// so nothing but these rules keeps one user's free work from filling every worker:
// - a job that took a quota unit goes before any free job, so free work delays a paying job by at most
//   the length of a job already running;
// - among jobs of one class, each user's jobs take turns: a job's rank is the number of its user's jobs
//   of that class running or queued before it, and lower ranks go first (then the oldest);
// - a user runs at most one free job of each kind at a time, and keeps at most FREE_JOBS_PER_KIND of
//   each kind queued or running (the routes refuse more: 429 too_many_free_jobs).
// The runner applies the rank when it polls the rows (db/jobs.ts claimNextJob) and the running cap
// whenever it claims (claimJob); BullMQ, which picks the job it delivers, gets the same rank as the job's
// priority.
import { createError } from '../errors.ts';
import { countActiveJobs, jobRanks } from '../db/jobs.ts';
import type { JobKind } from '../db/jobs.ts';
import type { Db } from '../db/database.ts';

/** Kinds that use no quota unit. */
export const FREE_KINDS: readonly JobKind[] = ['video', 'realign', 'adapt'];
/** Free jobs of one kind a user may have queued or running. */
export const FREE_JOBS_PER_KIND = 3;

export const isFree = (kind: JobKind): boolean => FREE_KINDS.includes(kind);

/** BullMQ priorities (1 is the highest; jobs of the paying class stay under FREE_PRIORITY). */
const FREE_PRIORITY = 1_048_576;
const MAX_RANK = 1_000_000;

/** The BullMQ priority of each job: its class, then its rank, as the database poll orders them. */
export async function dispatchPriorities(db: Db, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await jobRanks(db, ids);
  return new Map(rows.map((r) => [r.id, (isFree(r.kind) ? FREE_PRIORITY : 1) + Math.min(r.rank, MAX_RANK)]));
}

/**
 * Refuses a new free job of `kind` when the user already has FREE_JOBS_PER_KIND of that kind queued or
 * running: 429 too_many_free_jobs, before anything is written.
 */
export async function assertFreeJobRoom(db: Db, userId: string, kind: JobKind): Promise<void> {
  const n = await countActiveJobs(db, userId, kind);
  if (n < FREE_JOBS_PER_KIND) return;
  const what = kind === 'video' ? 'videos' : 're-alignments';
  throw createError(
    kind === 'video' ? 'too_many_videos' : 'too_many_realignments',
    { count: n, max: FREE_JOBS_PER_KIND },
    { non_field_errors: [`At most ${FREE_JOBS_PER_KIND} ${what} may wait or run at once.`] },
  );
}
