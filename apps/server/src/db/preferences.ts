import { DEFAULT_PREFERENCES, Preferences } from '@tazamun/contracts/auth';
import type { Db } from './database.ts';

/** Stored preferences merged over the defaults; a key that no longer validates falls back to its default. */
export async function getPreferences(db: Db, userId: string): Promise<Preferences> {
  const row = await db
    .selectFrom('preferences')
    .select('data')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return { ...DEFAULT_PREFERENCES };
  const stored = JSON.parse(row.data) as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...DEFAULT_PREFERENCES };
  for (const [key, value] of Object.entries(stored)) {
    const field = Preferences.shape[key as keyof Preferences];
    if (field && field.safeParse(value).success) merged[key] = value;
  }
  return merged as Preferences;
}

export async function savePreferences(
  db: Db,
  userId: string,
  prefs: Preferences,
  nowIso: string,
): Promise<void> {
  const data = JSON.stringify(prefs);
  await db
    .insertInto('preferences')
    .values({ user_id: userId, data, updated_at: nowIso })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ data, updated_at: nowIso }))
    .execute();
}
