// An upload that meets the database going away in the middle of its transaction is answered 503 with
// Retry-After, never 500 upload_failed (issue 29, item 2), and leaves nothing behind: no row, no quota
// used, no stored file. The database raises the very error it raises when it goes: on PostgreSQL a
// trigger fails the alignment's insert with SQLSTATE 57P01 (admin_shutdown, what a PostgreSQL stopping
// sends its sessions); on SQLite another connection holds the write lock, so the transaction ends in
// SQLITE_BUSY after its busy timeout. The multi-process outage is in reliability/dependency-restart.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { TEST_DB, approvedUser, bearer, expectError } from '@tazamun/server/testing/test-app';
import { createJobsTestApp, evalClip, upload } from '@tazamun/server/testing/jobs-test-app';

test('an upload whose transaction meets the database going away: 503 with Retry-After, nothing kept', async (t) => {
  const { app, dir, config } = await createJobsTestApp(t, { concurrency: 0 });
  const user = await approvedUser(app);
  const db = app.deps.db;
  let release = (): void => undefined;
  if (TEST_DB === 'postgres') {
    await sql`
      create function tazamun_test_shutdown() returns trigger language plpgsql as $$
      begin
        raise exception 'terminating connection due to administrator command' using errcode = '57P01';
      end $$`.execute(db);
    await sql`create trigger tazamun_test_shutdown before insert on alignments
      for each row execute function tazamun_test_shutdown()`.execute(db);
    release = () => undefined;
  } else {
    const other = new Database(config.database.file!);
    other.exec('BEGIN IMMEDIATE');
    release = () => {
      other.exec('ROLLBACK');
      other.close();
    };
    t.after(() => other.open && release());
  }
  const clip = evalClip();
  const res = await upload(app, user.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: clip.text },
    { name: 'audio', filename: 'a.wav', content: readFileSync(clip.wav) },
  ]);
  release();
  const body = expectError(res, 503, 'service_unavailable');
  assert.equal(res.headers['retry-after'], '5');
  assert.equal(typeof body.request_id, 'string');

  const rows = await db.selectFrom('alignments').select('id').execute();
  assert.deepEqual(rows, []);
  const quota = await app.inject({ url: '/api/auth/quota/', headers: bearer(user.access) });
  assert.equal(quota.json().quota.used_today, 0);
  const folder = join(dir, 'files', 'users', user.id, 'alignments');
  assert.deepEqual(existsSync(folder) ? readdirSync(folder) : [], []);
});
