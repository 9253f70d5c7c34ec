// One Kysely instance per process. SQLite runs in WAL mode with foreign keys enforced, so ON DELETE
// CASCADE removes a user's rows the same way PostgreSQL will.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely';
import type { DatabaseTarget } from '../config.ts';
import type { Database } from './schema.ts';
import * as m0001 from './migrations/0001-accounts.ts';
import * as m0002 from './migrations/0002-alignment-jobs.ts';

export type Db = Kysely<Database>;

/** Static list: migrations ship inside the code, no directory scanning at run time. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-accounts': m0001,
  '0002-alignment-jobs': m0002,
};

class StaticMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS;
  }
}

export function openDatabase(target: DatabaseTarget): Db {
  mkdirSync(dirname(target.file), { recursive: true });
  const sqlite = new SqliteDatabase(target.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function pendingMigrations(db: Db): Promise<number> {
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider() });
  const all = await migrator.getMigrations();
  return all.filter((m) => m.executedAt === undefined).length;
}

export async function pingDatabase(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
