// Personal API tokens: the database knows each one by its SHA-256 only.
import type { Db } from './database.ts';
import type { ApiTokenRow, UserRow } from './schema.ts';

export async function insertApiToken(db: Db, row: ApiTokenRow): Promise<void> {
  await db.insertInto('api_tokens').values(row).execute();
}

export function listApiTokens(db: Db, userId: string): Promise<ApiTokenRow[]> {
  return db
    .selectFrom('api_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export async function deleteApiToken(db: Db, id: string, userId: string): Promise<number> {
  const r = await db
    .deleteFrom('api_tokens')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Every token of the user: a password change or reset, and a rejection, end them all. */
export async function deleteUserApiTokens(db: Db, userId: string): Promise<number> {
  const r = await db.deleteFrom('api_tokens').where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/**
 * The per-request check: a token of that hash exists and has not expired, and its user is not rejected
 * (rejecting deletes the tokens; this holds even for a row the rejection missed); its user comes with it.
 */
export async function findApiTokenUser(
  db: Db,
  hash: string,
  nowIso: string,
): Promise<{ tokenId: string; lastUsedAt: string | null; user: UserRow } | undefined> {
  const row = await db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .selectAll('users')
    .select(['api_tokens.id as token_id', 'api_tokens.last_used_at as token_last_used_at'])
    .where('api_tokens.token_hash', '=', hash)
    .where('users.status', '!=', 'rejected')
    .where((eb) => eb.or([eb('api_tokens.expires_at', 'is', null), eb('api_tokens.expires_at', '>', nowIso)]))
    .executeTakeFirst();
  if (!row) return undefined;
  const { token_id, token_last_used_at, ...user } = row;
  return { tokenId: token_id, lastUsedAt: token_last_used_at, user };
}

export async function touchApiToken(db: Db, id: string, nowIso: string): Promise<void> {
  await db.updateTable('api_tokens').set({ last_used_at: nowIso }).where('id', '=', id).execute();
}

/** A token by its id (a progress-stream ticket names it): its user while it is valid, as findApiTokenUser. */
export async function findApiTokenUserById(db: Db, id: string, nowIso: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .selectAll('users')
    .where('api_tokens.id', '=', id)
    .where('users.status', '!=', 'rejected')
    .where((eb) => eb.or([eb('api_tokens.expires_at', 'is', null), eb('api_tokens.expires_at', '>', nowIso)]))
    .executeTakeFirst();
}
