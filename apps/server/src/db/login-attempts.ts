import type { Db } from './database.ts';
import type { LoginAttemptsTable } from './schema.ts';

export function findLoginAttempts(db: Db, emailKey: string): Promise<LoginAttemptsTable | undefined> {
  return db.selectFrom('login_attempts').selectAll().where('email_key', '=', emailKey).executeTakeFirst();
}

/** Counts one more failure atomically (upsert) and returns the new count. */
export async function recordFailure(db: Db, emailKey: string, nowIso: string): Promise<number> {
  const row = await db
    .insertInto('login_attempts')
    .values({ email_key: emailKey, failures: 1, first_failure_at: nowIso, locked_until: null })
    .onConflict((oc) =>
      oc.column('email_key').doUpdateSet((eb) => ({ failures: eb('login_attempts.failures', '+', 1) })),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  return row.failures;
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
