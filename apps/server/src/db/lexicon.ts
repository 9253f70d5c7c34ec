// The personal lexicon: one pronunciation (IPA) per user, language and word. Words are kept lower-cased
// in NFC, the key the aligner looks them up by, so "Tazamun" and "tazamun" are one entry.
import { randomUUID } from 'node:crypto';
import type { Db } from './database.ts';
import type { LexiconEntryRow } from './schema.ts';

export const lexiconKey = (word: string): string => word.normalize('NFC').toLowerCase();

export function listLexicon(db: Db, userId: string, language?: string): Promise<LexiconEntryRow[]> {
  let q = db.selectFrom('lexicon_entries').selectAll().where('user_id', '=', userId);
  if (language) q = q.where('language', '=', language);
  return q.orderBy('language').orderBy('word').execute();
}

/** What the aligner needs for one job: the owner's words of that language. */
export async function lexiconFor(
  db: Db | { selectFrom: Db['selectFrom'] },
  userId: string,
  language: string,
): Promise<{ word: string; ipa: string }[]> {
  return (db as Db)
    .selectFrom('lexicon_entries')
    .select(['word', 'ipa'])
    .where('user_id', '=', userId)
    .where('language', '=', language)
    .execute();
}

export function countLexicon(db: Db, userId: string): Promise<number> {
  return db
    .selectFrom('lexicon_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.n));
}

/** Adds the entry, or replaces the pronunciation of a word already there. */
export async function upsertLexiconEntry(
  db: Db,
  userId: string,
  entry: { language: string; word: string; ipa: string },
  nowIso: string,
): Promise<LexiconEntryRow> {
  const word = lexiconKey(entry.word);
  return db
    .insertInto('lexicon_entries')
    .values({
      id: randomUUID(),
      user_id: userId,
      language: entry.language,
      word,
      ipa: entry.ipa,
      created_at: nowIso,
      updated_at: nowIso,
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'language', 'word']).doUpdateSet({ ipa: entry.ipa, updated_at: nowIso }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteLexiconEntry(db: Db, userId: string, id: string): Promise<number> {
  const r = await db
    .deleteFrom('lexicon_entries')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
