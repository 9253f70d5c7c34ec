// The alignments repository: queries over alignments for their owner, with their shares, latest jobs
// and the owner's statistics. Every lookup is scoped by user id, so another user's id is simply
// "not found" (404), never "forbidden".
import { sql } from 'kysely';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import type { ProcessingStep } from '@tazamun/contracts/alignments';
import type { Stats } from '@tazamun/contracts/auth';
import type { Db } from './database.ts';
import type { AlignmentRow, NewAlignment } from './schema.ts';

export function findOwnedAlignment(db: Db, userId: string, id: string): Promise<AlignmentRow | undefined> {
  return db
    .selectFrom('alignments')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export interface AlignmentFilters {
  language?: string;
  status?: string;
  from?: string;
  to?: string;
  q?: string;
  project?: string;
  ordering: '-created_at' | 'created_at' | 'title' | '-duration';
  page: number;
  pageSize: number;
}

const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listAlignments(
  db: Db,
  userId: string,
  f: AlignmentFilters,
): Promise<{ rows: AlignmentRow[]; count: number }> {
  let q = db.selectFrom('alignments').where('user_id', '=', userId);
  if (f.language) q = q.where('language', '=', f.language);
  if (f.status) q = q.where('status', '=', f.status);
  if (f.from) q = q.where('created_at', '>=', f.from);
  // A bare date as upper bound means "through that whole day".
  if (f.to) q = q.where('created_at', '<=', f.to.length === 10 ? `${f.to}T23:59:59.999Z` : f.to);
  if (f.project === 'none') q = q.where('project_id', 'is', null);
  else if (f.project) q = q.where('project_id', '=', f.project);
  if (f.q && f.q.trim()) {
    const like = `%${escapeLike(f.q.trim().toLowerCase())}%`;
    q = q.where(
      sql<boolean>`lower(coalesce(title, '') || ' ' || coalesce(file_name, '') || ' ' || coalesce(search_text, '')) like ${like} escape '\\'`,
    );
  }
  const { count } = await q.select(sql<number>`count(*)`.as('count')).executeTakeFirstOrThrow();
  let ordered = q.selectAll();
  ordered =
    f.ordering === 'created_at'
      ? ordered.orderBy('created_at', 'asc')
      : f.ordering === 'title'
        ? ordered.orderBy('title', 'asc')
        : f.ordering === '-duration'
          ? ordered.orderBy('duration', 'desc')
          : ordered.orderBy('created_at', 'desc');
  const rows = await ordered
    .orderBy('id')
    .limit(f.pageSize)
    .offset((f.page - 1) * f.pageSize)
    .execute();
  return { rows, count: Number(count) };
}

export async function sharedIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('shares')
    .select('alignment_id')
    .where('alignment_id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.alignment_id));
}

export function latestJob(db: Db, alignmentId: string, kind: 'align' | 'video' = 'align') {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('alignment_id', '=', alignmentId)
    .where('kind', '=', kind)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function userStats(db: Db, userId: string): Promise<Stats> {
  const agg = await db
    .selectFrom('alignments')
    .select([
      sql<number>`count(*)`.as('total'),
      sql<number>`sum(case when status = 'completed' then 1 else 0 end)`.as('completed'),
      // An alignment's accuracy is its mean word confidence with the words not found counting 0
      // (coverage x mean confidence of the aligned words). 1 - WER was used before, but the WER comes
      // from a phone recogniser without a language model: about 0.5 for correct transcripts
      // (docs/benchmarks.md), so good alignments showed about 50 %.
      sql<number | null>`avg(case when status = 'completed' then coverage * confidence end)`.as('accuracy'),
      sql<number | null>`sum(case when status = 'completed' then duration else 0 end)`.as('duration'),
      // What the dashboard shows instead of an "accuracy" (ADR 0021): the share of good verdicts among
      // the completed alignments that have one, and their mean word confidence.
      sql<
        number | null
      >`avg(case when status = 'completed' and verdict is not null then (case when verdict = 'good' then 1.0 else 0.0 end) end)`.as(
        'good_share',
      ),
      sql<number | null>`avg(case when status = 'completed' then confidence end)`.as('mean_confidence'),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const langs = await db
    .selectFrom('alignments')
    .select('language')
    .distinct()
    .where('user_id', '=', userId)
    .orderBy('language')
    .execute();
  return {
    total_alignments: Number(agg.total),
    completed_alignments: Number(agg.completed ?? 0),
    average_accuracy: agg.accuracy === null ? null : Math.max(0, Math.min(1, Number(agg.accuracy))),
    good_share: agg.good_share === null ? null : Number(agg.good_share),
    mean_confidence: agg.mean_confidence === null ? null : Number(agg.mean_confidence),
    total_duration_seconds: Number(agg.duration ?? 0),
    languages_used: langs.map((l) => l.language),
  };
}

export function listUserAlignments(db: Db, userId: string): Promise<AlignmentRow[]> {
  return db
    .selectFrom('alignments')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

/** The alignment, when its owner is approved: a rejected owner's signed audio URLs open nothing more. */
export function findAlignmentOfApprovedOwner(db: Db, id: string): Promise<AlignmentRow | undefined> {
  return db
    .selectFrom('alignments')
    .innerJoin('users', 'users.id', 'alignments.user_id')
    .selectAll('alignments')
    .where('alignments.id', '=', id)
    .where('users.status', '=', 'approved')
    .executeTakeFirst();
}

/** Renames the alignment or moves it to a project (null: unassigned); absent fields stay. */
export async function updateAlignment(
  db: Db,
  id: string,
  fields: { title?: string; project_id?: string | null },
  nowIso: string,
): Promise<void> {
  await db
    .updateTable('alignments')
    .set({
      ...(fields.title !== undefined && { title: fields.title }),
      ...(fields.project_id !== undefined && { project_id: fields.project_id }),
      updated_at: nowIso,
    })
    .where('id', '=', id)
    .execute();
}

/** The alignment's jobs that are queued or running. */
export async function activeJobIds(db: Db, alignmentId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('jobs')
    .select('id')
    .where('alignment_id', '=', alignmentId)
    .where('status', 'in', ['queued', 'processing'])
    .execute();
  return rows.map((r) => r.id);
}

/** Deletes the row; its jobs, shares, revisions, videos and demo go with it (cascade). */
export async function deleteAlignmentRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('alignments').where('id', '=', id).execute();
}

// ---- the alignment job's writes (jobs/align-job.ts, commands/settle-alignment.ts) ----

export function findAlignment(db: Db, id: string): Promise<AlignmentRow | undefined> {
  return db.selectFrom('alignments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The step a running job reached; nothing once the alignment has ended (a late progress write). */
export async function setAlignmentStep(
  db: Db,
  id: string,
  step: ProcessingStep,
  progress: number,
  nowIso: string,
): Promise<void> {
  await db
    .updateTable('alignments')
    .set({ status: 'processing', step, progress, updated_at: nowIso })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'processing'])
    .execute();
}

/** The engine's figures once its result file is stored. */
export async function completeAlignment(
  db: Db,
  id: string,
  resultFile: string,
  result: AlignmentResult,
  nowIso: string,
): Promise<void> {
  const m = result.metrics;
  await db
    .updateTable('alignments')
    .set({
      status: 'completed',
      step: 'finalisation',
      progress: 100,
      result_file: resultFile,
      processed_text: result.text.processed,
      engine: `${result.engine.backend}/${result.engine.model}`,
      duration: result.audio.duration,
      confidence: m.mean_confidence,
      wer: m.wer,
      cer: m.cer,
      words: m.words_total,
      coverage: m.coverage,
      processing_time: m.processing_time,
      verdict: result.quality.verdict,
      detected_language: result.detected_language,
      error_code: null,
      error_params: null,
      updated_at: nowIso,
      completed_at: nowIso,
    })
    .where('id', '=', id)
    .execute();
}

/** What a job's failure or cancel needs of its alignment: whose unit, of which day, given back or not. */
export function alignmentQuotaState(db: Db, id: string) {
  return db
    .selectFrom('alignments')
    .select(['user_id', 'quota_day', 'quota_refunded', 'status'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The alignment ended without a result (failed or cancelled), its unit given back or not. */
export async function endAlignment(
  db: Db,
  id: string,
  end:
    | { status: 'failed'; errorCode: string; errorParams: Record<string, string | number> }
    | { status: 'cancelled' },
  refunded: boolean,
  nowIso: string,
): Promise<void> {
  await db
    .updateTable('alignments')
    .set({
      status: end.status,
      ...(end.status === 'failed'
        ? { error_code: end.errorCode, error_params: JSON.stringify(end.errorParams) }
        : {}),
      quota_refunded: refunded ? 1 : 0,
      updated_at: nowIso,
    })
    .where('id', '=', id)
    .execute();
}

/** Back to the queue (a retry, a hand-back): it starts again from the first step. */
/** The adapted model an upload aligns with (null: the language's own model), name and id together. */
export async function setAlignmentModel(
  db: Db,
  id: string,
  model: { id: string; name: string } | null,
  nowIso: string,
): Promise<void> {
  await db
    .updateTable('alignments')
    .set({ model_id: model?.id ?? null, model_name: model?.name ?? null, updated_at: nowIso })
    .where('id', '=', id)
    .execute();
}

export async function requeueAlignment(db: Db, id: string, nowIso: string): Promise<void> {
  await db
    .updateTable('alignments')
    .set({ status: 'queued', step: null, progress: 0, updated_at: nowIso })
    .where('id', '=', id)
    .where('status', 'in', ['processing', 'queued'])
    .execute();
}

/** A failed alignment queued again by an operator: no step, no error, from the first step. */
export async function resetAlignmentForRetry(db: Db, id: string, nowIso: string): Promise<void> {
  await db
    .updateTable('alignments')
    .set({
      status: 'queued',
      step: null,
      progress: 0,
      error_code: null,
      error_params: null,
      updated_at: nowIso,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * A failed or cancelled alignment queued again as a new attempt (the user's retry), its quota unit taken
 * today. The status guard makes two retries pressed at once queue one job: the second matches no row.
 */
export function requeueEndedAlignment(
  db: Db,
  id: string,
  from: AlignmentRow['status'][],
  today: string,
  nowIso: string,
): Promise<AlignmentRow | undefined> {
  return db
    .updateTable('alignments')
    .set({
      status: 'queued',
      step: null,
      progress: 0,
      error_code: null,
      error_params: null,
      quota_day: today,
      quota_refunded: 0,
      completed_at: null,
      updated_at: nowIso,
    })
    .where('id', '=', id)
    .where('status', 'in', from)
    .returningAll()
    .executeTakeFirst();
}

/** Writes a new alignment row (commands/create-alignment.ts, demos/seed-demos.ts); returns it. */
export function insertAlignment(db: Db, row: NewAlignment): Promise<AlignmentRow> {
  return db.insertInto('alignments').values(row).returningAll().executeTakeFirstOrThrow();
}

/** The platform's completed alignments: how many, their seconds and their words (the landing page). */
export async function completedTotals(db: Db): Promise<{ count: number; seconds: number; words: number }> {
  const agg = await db
    .selectFrom('alignments')
    .select([
      sql<number>`count(*)`.as('n'),
      sql<number | null>`sum(duration)`.as('seconds'),
      sql<number | null>`sum(words)`.as('words'),
    ])
    .where('status', '=', 'completed')
    .executeTakeFirstOrThrow();
  return { count: Number(agg.n), seconds: Number(agg.seconds ?? 0), words: Number(agg.words ?? 0) };
}

/** What the job log lines and metrics say of an alignment (jobs/observed-handler.ts). */
export function alignmentFacts(db: Db, id: string) {
  return db
    .selectFrom('alignments')
    .select(['language', 'request_id', 'engine', 'duration', 'processing_time'])
    .where('id', '=', id)
    .executeTakeFirst();
}
