import { sql } from 'kysely';
import type { Db } from './database.ts';
import type { LoginAttemptsTable } from './schema.ts';

export function findLoginAttempts(db: Db, emailKey: string): Promise<LoginAttemptsTable | undefined> {
  return db.selectFrom('login_attempts').selectAll().where('email_key', '=', emailKey).executeTakeFirst();
}

/**
 * Counts one attempt before its password is checked, in one statement (an upsert), and returns the
 * attempt's number and the lock in force. Parallel attempts each get their own number, so no more than
 * the allowed count can reach the slow hash at once. A served lock or a passed window starts the count
 * afresh in the same statement. Numbers are handed out as failures: a success clears the row.
 */
export async function reserveLoginAttempt(
  db: Db,
  emailKey: string,
  nowIso: string,
  /** first failures before this instant no longer count */
  windowStartIso: string,
): Promise<{ attempt: number; lockedUntil: string | null }> {
  const stale = sql<boolean>`(login_attempts.locked_until is not null and login_attempts.locked_until <= ${nowIso})
    or (login_attempts.locked_until is null and login_attempts.first_failure_at <= ${windowStartIso})`;
  const row = await db
    .insertInto('login_attempts')
    .values({ email_key: emailKey, failures: 1, first_failure_at: nowIso, locked_until: null })
    .onConflict((oc) =>
      oc.column('email_key').doUpdateSet({
        failures: sql<number>`case when ${stale} then 1 else login_attempts.failures + 1 end`,
        first_failure_at: sql<string>`case when ${stale} then ${nowIso} else login_attempts.first_failure_at end`,
        locked_until: sql<string | null>`case when ${stale} then null else login_attempts.locked_until end`,
      }),
    )
    .returning(['failures', 'locked_until'])
    .executeTakeFirstOrThrow();
  return { attempt: row.failures, lockedUntil: row.locked_until };
}

export async function lockAccount(db: Db, emailKey: string, untilIso: string): Promise<void> {
  await db
    .updateTable('login_attempts')
    .set({ locked_until: untilIso })
    .where('email_key', '=', emailKey)
    .execute();
}

export async function clearLoginAttempts(db: Db, emailKey: string): Promise<void> {
  await db.deleteFrom('login_attempts').where('email_key', '=', emailKey).execute();
}
