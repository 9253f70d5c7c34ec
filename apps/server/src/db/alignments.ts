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
