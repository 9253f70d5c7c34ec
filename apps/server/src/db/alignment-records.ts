// Queries over alignments for their owner. Every lookup is scoped by user id, so another user's id
// is simply "not found" (404), never "forbidden".
import { sql } from 'kysely';
import type { JDb, FullAlignmentRow } from './jobs-schema.ts';

export function findOwnedAlignment(
  db: JDb,
  userId: string,
  id: string,
): Promise<FullAlignmentRow | undefined> {
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
  db: JDb,
  userId: string,
  f: AlignmentFilters,
): Promise<{ rows: FullAlignmentRow[]; count: number }> {
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

export async function sharedIds(db: JDb, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('shares')
    .select('alignment_id')
    .where('alignment_id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.alignment_id));
}

export function latestJob(db: JDb, alignmentId: string, kind: 'align' | 'video' = 'align') {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('alignment_id', '=', alignmentId)
    .where('kind', '=', kind)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}
