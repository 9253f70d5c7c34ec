import { sql } from 'kysely';
import type { Stats } from '@tazamun/contracts/auth';
import type { Db } from './database.ts';
import type { AlignmentRow } from './schema.ts';

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
