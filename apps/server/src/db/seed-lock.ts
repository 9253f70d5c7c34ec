// Several API processes start together in the scaled-out shape and each would seed the demo gallery;
// two seeding at once raced on the same manifest entries (one failed on the unique key, logged as an
// error). Seeding runs under a try-lock instead: the process that gets it seeds, the others skip (the
// seeding is idempotent, so the next start of any process completes what an interrupted one left).
// PostgreSQL: a session advisory lock on one pinned connection. SQLite: an exclusive transaction on a
// side file, taken without waiting (better-sqlite3 would block the event loop while it waits); the OS
// drops it if the process dies.
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import type { Db } from './database.ts';
import { sqliteFileOf } from './database.ts';
import { isPostgres } from './postgres.ts';

// Any fixed 64-bit key, distinct from the migration lock's.
const SEED_LOCK_KEY = 7_301_946_212;

/** Runs `fn` if no other process holds the seed lock; null (without running it) otherwise. */
export async function underSeedLock<T>(db: Db, fn: () => Promise<T>): Promise<T | null> {
  if (isPostgres(db))
    return db.connection().execute(async (conn) => {
      const { rows } = await sql<{
        got: boolean;
      }>`select pg_try_advisory_lock(${SEED_LOCK_KEY}) as got`.execute(conn);
      if (!rows[0]?.got) return null;
      try {
        return await fn();
      } finally {
        await sql`select pg_advisory_unlock(${SEED_LOCK_KEY})`.execute(conn);
      }
    });
  const file = sqliteFileOf(db);
  if (!file) return fn();
  const lock = new SqliteDatabase(`${file}.seed-lock`);
  try {
    lock.pragma('busy_timeout = 0');
    try {
      lock.exec('begin exclusive');
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_BUSY') return null;
      throw err;
    }
    try {
      return await fn();
    } finally {
      lock.exec('commit');
    }
  } finally {
    lock.close();
  }
}
