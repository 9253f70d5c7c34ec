import type { Db } from './database.ts';
import type { PasswordResetsTable } from './schema.ts';

export async function insertPasswordReset(db: Db, row: PasswordResetsTable): Promise<void> {
  await db.insertInto('password_resets').values(row).execute();
}

/** Marks the token used if it is unused and unexpired; returns its user, or undefined. */
export async function consumePasswordReset(
  db: Db,
  tokenHash: string,
  nowIso: string,
): Promise<string | undefined> {
  const row = await db
    .updateTable('password_resets')
    .set({ used_at: nowIso })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

export async function findValidPasswordReset(
  db: Db,
  tokenHash: string,
  nowIso: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('password_resets')
    .select('user_id')
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso)
    .executeTakeFirst();
  return row?.user_id;
}

/** Spends every unused link of the user (after a reset, a password change, a rejection); returns how many. */
export async function revokePasswordResets(db: Db, userId: string, nowIso: string): Promise<number> {
  const r = await db
    .updateTable('password_resets')
    .set({ used_at: nowIso })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Every reset link of the user, used or not. */
export async function deletePasswordResets(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('password_resets').where('user_id', '=', userId).execute();
}
