// One Kysely instance per process, on SQLite (the embedded default) or PostgreSQL (DATABASE_URL), with
// the same repositories and migrations. SQLite runs in WAL mode with foreign keys enforced, so ON
// DELETE CASCADE removes a user's rows the same way PostgreSQL does.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely';
import type { DatabaseTarget } from '../config.ts';
import type { Database } from './schema.ts';
import * as m0001 from './migrations/0001-accounts.ts';
import * as m0002 from './migrations/0002-alignment-jobs.ts';
import * as m0003 from './migrations/0003-write-probe.ts';
import * as m0004 from './migrations/0004-verdict.ts';
import * as m0005 from './migrations/0005-revisions.ts';
import * as m0006 from './migrations/0006-corpus.ts';
import * as m0007 from './migrations/0007-job-retries-and-workers.ts';
import * as m0008 from './migrations/0008-job-operations.ts';
import * as m0009 from './migrations/0009-adapted-models.ts';
import { isPostgres, notePool, openPostgres } from './postgres.ts';
import { StripNulPlugin } from '../reliability/input-hygiene.ts';

export type Db = Kysely<Database>;

/** Static list: migrations ship inside the code, no directory scanning at run time. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-accounts': m0001,
  '0002-alignment-jobs': m0002,
  '0003-write-probe': m0003,
  '0004-verdict': m0004,
  '0005-revisions': m0005,
  '0006-corpus': m0006,
  '0007-job-retries-and-workers': m0007,
  '0008-job-operations': m0008,
  '0009-adapted-models': m0009,
};

class StaticMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS;
  }
}

const sqliteFiles = new WeakMap<Db, string>();

export function openDatabase(target: DatabaseTarget): Db {
  if (target.kind === 'postgres') {
    const pg = openPostgres(target.url, { max: target.poolMax });
    return notePool(pg, pg.withPlugin(new StripNulPlugin()));
  }
  mkdirSync(dirname(target.file), { recursive: true });
  const sqlite = new SqliteDatabase(target.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    // the same values land in both databases: PostgreSQL cannot store NUL in text
    plugins: [new StripNulPlugin()],
  });
  sqliteFiles.set(db, target.file);
  return db;
}

/** The SQLite file under `db`, for side-file locks; undefined on PostgreSQL. */
export function sqliteFileOf(db: Db): string | undefined {
  return sqliteFiles.get(db);
}

// Any fixed 64-bit key; shared by every Tazamun process on one database.
const MIGRATION_LOCK_KEY = 7_301_946_211;

async function runMigrator(db: Db, migrationTableSchema?: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider(), migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Several processes (API servers, workers, the admin CLI) start at once on one database, so exactly one
 * migrates and the others wait and then find nothing to do. Kysely's own PostgreSQL lock is taken only
 * after it creates its bookkeeping tables, and two concurrent `create table if not exists` can collide,
 * so the whole run holds a session advisory lock on one pinned connection. On SQLite a deferred
 * transaction that loses the race fails with SQLITE_BUSY instead of waiting, so the run holds an
 * exclusive transaction on a side file; the OS drops that lock if the process dies.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  if (!isPostgres(db)) return withSqliteMigrationLock(sqliteFiles.get(db), () => runMigrator(db));
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(conn);
    try {
      // Kysely looks for its bookkeeping tables in every schema unless told which one; name the
      // connection's own, so databases that hold several schemas (tests, shared clusters) stay apart.
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(conn);
      return await runMigrator(conn, rows[0]?.schema);
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(conn);
    }
  });
}

async function withSqliteMigrationLock<T>(file: string | undefined, run: () => Promise<T>): Promise<T> {
  if (!file) return run();
  const lock = new SqliteDatabase(`${file}.migrate-lock`);
  try {
    lock.pragma('busy_timeout = 120000');
    lock.exec('begin exclusive');
    try {
      return await run();
    } finally {
      lock.exec('commit');
    }
  } finally {
    lock.close();
  }
}

export async function pendingMigrations(db: Db): Promise<number> {
  const schema = isPostgres(db)
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
    : undefined;
  const migrator = new Migrator({
    db,
    provider: new StaticMigrationProvider(),
    migrationTableSchema: schema,
  });
  const all = await migrator.getMigrations();
  return all.filter((m) => m.executedAt === undefined).length;
}

/** One round trip; rejects with the driver's error when the database does not answer. */
export async function selectOne(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

export async function pingDatabase(db: Db): Promise<boolean> {
  try {
    await selectOne(db);
    return true;
  } catch {
    return false;
  }
}

/** True when the database takes a write now (one row rewritten in write_probe); false on a full disk. */
export async function probeDatabaseWrite(db: Db, nowIso: string): Promise<boolean> {
  try {
    await db
      .insertInto('write_probe')
      .values({ id: 1, checked_at: nowIso })
      .onConflict((oc) => oc.column('id').doUpdateSet({ checked_at: nowIso }))
      .execute();
    return true;
  } catch {
    return false;
  }
}
