// The demo gallery's repository: demos whose alignment completed, searched and filtered, and the
// administrator's publish and remove.
import { sql } from 'kysely';
import type { Db } from './database.ts';
import type { DemoRow } from './schema.ts';

function completedDemos(db: Db) {
  return db
    .selectFrom('demos')
    .innerJoin('alignments', 'alignments.id', 'demos.alignment_id')
    .where('alignments.status', '=', 'completed')
    .select([
      'demos.id as id',
      'demos.title as title',
      'demos.category as category',
      'demos.description as description',
      'demos.licence as licence',
      'demos.source as source',
      'demos.created_at as created_at',
      'alignments.language as language',
      'alignments.duration as duration',
      'alignments.words as words',
      'alignments.confidence as confidence',
      'alignments.verdict as verdict',
      'alignments.user_id as user_id',
      'alignments.audio_file as audio_file',
      'alignments.audio_format as audio_format',
      'alignments.text_file as text_file',
      'alignments.result_file as result_file',
      'alignments.processed_text as processed_text',
    ]);
}

/** A demo with what the gallery shows of its alignment. */
export type GalleryDemo = Awaited<ReturnType<ReturnType<typeof completedDemos>['executeTakeFirstOrThrow']>>;

export interface DemoFilters {
  category?: string;
  language?: string;
  duration?: 'short' | 'medium' | 'long';
  /** words of the title, description or transcript */
  q?: string;
}

export function findDemo(db: Db, id: string): Promise<GalleryDemo | undefined> {
  return completedDemos(db).where('demos.id', '=', id).executeTakeFirst();
}

/** The completed demos matching the filters, oldest first. */
export function searchDemos(db: Db, f: DemoFilters): Promise<GalleryDemo[]> {
  let query = completedDemos(db);
  if (f.category) query = query.where('demos.category', '=', f.category);
  if (f.language) query = query.where('alignments.language', '=', f.language);
  if (f.duration === 'short') query = query.where('alignments.duration', '<', 30);
  if (f.duration === 'medium')
    query = query.where('alignments.duration', '>=', 30).where('alignments.duration', '<=', 120);
  if (f.duration === 'long') query = query.where('alignments.duration', '>', 120);
  if (f.q?.trim()) {
    const like = `%${f.q
      .trim()
      .toLowerCase()
      .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where(
      sql<boolean>`lower(demos.title || ' ' || demos.description || ' ' || coalesce(alignments.search_text, '')) like ${like} escape '\\'`,
    );
  }
  return query.orderBy('demos.created_at').orderBy('demos.id').execute();
}

/** The filter choices over every completed demo, and how many demos are still being aligned. */
export async function galleryFacets(
  db: Db,
): Promise<{ categories: string[]; languages: string[]; preparing: number }> {
  const all = await completedDemos(db).execute();
  const preparing = await db
    .selectFrom('demos')
    .innerJoin('alignments', 'alignments.id', 'demos.alignment_id')
    .where('alignments.status', 'in', ['queued', 'processing'])
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return {
    categories: [...new Set(all.map((r) => r.category))].sort(),
    languages: [...new Set(all.map((r) => r.language))].sort(),
    preparing: Number(preparing.n),
  };
}

export async function isDemo(db: Db, alignmentId: string): Promise<boolean> {
  const row = await db
    .selectFrom('demos')
    .select('id')
    .where('alignment_id', '=', alignmentId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The demo seeded from this manifest key, if it was. */
export async function isSeeded(db: Db, seedKey: string): Promise<boolean> {
  const row = await db.selectFrom('demos').select('id').where('seed_key', '=', seedKey).executeTakeFirst();
  return row !== undefined;
}

export async function insertDemo(db: Db, demo: DemoRow): Promise<void> {
  await db.insertInto('demos').values(demo).execute();
}

/** false when there was no such demo. */
export async function deleteDemo(db: Db, id: string): Promise<boolean> {
  const r = await db.deleteFrom('demos').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
