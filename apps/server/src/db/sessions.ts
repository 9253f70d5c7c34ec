import type { Db } from './database.ts';
import type { SessionRow, UserRow } from './schema.ts';

export async function insertSession(db: Db, row: SessionRow): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

/** The per-request check: the session still exists, belongs to the token's user and has not expired. */
export async function findSessionUser(
  db: Db,
  sessionId: string,
  userId: string,
  nowIso: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .where('sessions.id', '=', sessionId)
    .where('sessions.user_id', '=', userId)
    .where('sessions.expires_at', '>', nowIso)
    .executeTakeFirst();
}

export function findSessionByRefreshHash(db: Db, hash: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('refresh_hash', '=', hash).executeTakeFirst();
}

export async function findSessionIdOfUsedToken(db: Db, hash: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('used_refresh_tokens')
    .select('session_id')
    .where('hash', '=', hash)
    .executeTakeFirst();
  return row?.session_id;
}

/**
 * Swaps the session's refresh hash only if it is still the presented one, and remembers the old hash
 * so a replay of it is recognised as reuse. False when another request rotated it first.
 */
export async function rotateRefresh(
  db: Db,
  session: SessionRow,
  newHash: string,
  nowIso: string,
  expiresAt: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('sessions')
      .set({ refresh_hash: newHash, last_used_at: nowIso, expires_at: expiresAt })
      .where('id', '=', session.id)
      .where('refresh_hash', '=', session.refresh_hash)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await trx
      .insertInto('used_refresh_tokens')
      .values({ hash: session.refresh_hash, session_id: session.id, used_at: nowIso })
      .execute();
    return true;
  });
}

export async function deleteSession(db: Db, id: string, userId?: string): Promise<number> {
  let q = db.deleteFrom('sessions').where('id', '=', id);
  if (userId) q = q.where('user_id', '=', userId);
  const r = await q.executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** The user's sessions that have expired. */
export async function deleteExpiredSessions(db: Db, userId: string, nowIso: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('expires_at', '<=', nowIso).execute();
}

export async function deleteUserSessions(db: Db, userId: string, exceptId?: string): Promise<number> {
  let q = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptId) q = q.where('id', '<>', exceptId);
  const r = await q.executeTakeFirst();
  return Number(r.numDeletedRows);
}

export function listUserSessions(db: Db, userId: string, nowIso: string): Promise<SessionRow[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('expires_at', '>', nowIso)
    .orderBy('last_used_at', 'desc')
    .execute();
}
