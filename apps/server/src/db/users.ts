import { sql } from 'kysely';
import type { Db } from './database.ts';
import type { NewUser, UserRow, UserUpdate } from './schema.ts';

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email_key', '=', email.trim().toLowerCase())
    .executeTakeFirst();
}

export async function insertUser(db: Db, user: NewUser): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

/** Writes the user unless a row with its id exists (a system account made at every start). */
export async function insertUserIfAbsent(db: Db, user: NewUser): Promise<void> {
  await db
    .insertInto('users')
    .values(user)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export async function updateUser(db: Db, id: string, patch: UserUpdate): Promise<void> {
  await db.updateTable('users').set(patch).where('id', '=', id).execute();
}

export function listUsers(db: Db, status?: UserRow['status']): Promise<UserRow[]> {
  let q = db.selectFrom('users').selectAll().orderBy('created_at', 'asc');
  if (status) q = q.where('status', '=', status);
  return q.execute();
}

export async function deleteUser(db: Db, id: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

/**
 * Takes one unit of today's quota in a single conditional UPDATE, so concurrent requests can never
 * exceed the limit. A row still counting an earlier day starts over at 1 (the midnight UTC reset).
 */
export async function consumeQuota(db: Db, id: string, today: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({
      used_today: sql<number>`case when quota_day = ${today} then used_today + 1 else 1 end`,
      quota_day: today,
    })
    .where('id', '=', id)
    .where('daily_limit', '>', 0)
    .where((eb) => eb.or([eb('quota_day', '<>', today), eb('used_today', '<', eb.ref('daily_limit'))]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function resetQuota(db: Db, id: string, today: string): Promise<void> {
  await db.updateTable('users').set({ used_today: 0, quota_day: today }).where('id', '=', id).execute();
}

/** The unit goes back only while its day is still the user's quota day (midnight UTC resets anyway). */
export async function refundQuota(db: Db, userId: string, day: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ used_today: sql<number>`case when used_today > 0 then used_today - 1 else 0 end` })
    .where('id', '=', userId)
    .where('quota_day', '=', day)
    .execute();
}
