// Dialect-level checks: several processes starting at once on a fresh database migrate it exactly once
// (SQLite and PostgreSQL), PostgreSQL hands counts back as numbers like SQLite does, and each process's
// pool is as large as DATABASE_POOL_MAX.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { loadConfig } from '../config.ts';
import type { DatabaseTarget } from '../config.ts';
import { startPostgres } from '@tazamun/server/testing/postgres-server';
import { openDatabase } from './database.ts';

const run = promisify(execFile);
const DATABASE_TS = join(dirname(fileURLToPath(import.meta.url)), 'database.ts');

/** One process: open, migrate, print how many migrations this process applied. */
async function migrateInChild(target: DatabaseTarget): Promise<number> {
  const code = `
    import { openDatabase, migrateToLatest } from ${JSON.stringify(DATABASE_TS)};
    const db = openDatabase(JSON.parse(process.env.TARGET));
    const applied = await migrateToLatest(db);
    await db.destroy();
    console.log(applied.length);`;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    env: { ...process.env, TARGET: JSON.stringify(target) },
  });
  return Number(stdout.trim());
}

async function concurrentStart(t: TestContext, target: DatabaseTarget): Promise<void> {
  const applied = await Promise.all([1, 2, 3, 4].map(() => migrateInChild(target)));
  // exactly one process applied every migration; the others found nothing left to do
  assert.equal(applied.filter((n) => n > 0).length, 1, `applied per process: ${applied.join(',')}`);
  assert.equal(applied.filter((n) => n === 0).length, 3);
  const db = openDatabase(target);
  t.after(() => db.destroy());
  const rows = await db
    .selectFrom('kysely_migration' as never)
    .selectAll()
    .execute();
  assert.equal(rows.length, Math.max(...applied));
}

test('four processes starting at once on a fresh SQLite file migrate it once', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-migrate-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  await concurrentStart(t, { kind: 'sqlite', file: join(dir, 'db.sqlite') });
});

test('four processes starting at once on a fresh PostgreSQL database migrate it once', async (t) => {
  const server = await startPostgres();
  t.after(() => server.stop());
  await concurrentStart(t, { kind: 'postgres', url: server.url });

  const db = openDatabase({ kind: 'postgres', url: server.url });
  t.after(() => db.destroy());
  const { rows } = await sql<{ n: unknown; s: unknown; a: unknown }>`
    select count(*) as n, sum(x) as s, avg(x) as a from (values (1), (2)) as v(x)`.execute(db);
  assert.deepEqual(rows[0], { n: 2, s: 3, a: 1.5 });
});

test('a process opens at most DATABASE_POOL_MAX PostgreSQL connections, as loadConfig parsed it', async (t) => {
  const server = await startPostgres();
  t.after(() => server.stop());
  // more queries at once than the pool holds: each keeps its connection busy, the rest wait for one
  const backends = async (env: NodeJS.ProcessEnv, queries: number): Promise<number> => {
    const db = openDatabase(loadConfig({ DATABASE_URL: server.url, ...env }).database);
    try {
      const pids = await Promise.all(
        Array.from({ length: queries }, async () => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.2)`.execute(
            db,
          );
          return rows[0]!.pid;
        }),
      );
      return new Set(pids).size;
    } finally {
      await db.destroy();
    }
  };
  assert.equal(await backends({ DATABASE_POOL_MAX: '2' }, 6), 2);
  assert.equal(await backends({}, 14), 10, 'the default pool');
});
