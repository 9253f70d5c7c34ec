// Two processes starting together seed the demo gallery once: while one holds the seed lock, the
// other's attempt is skipped; once released, the next one runs. On the test database (SQLite file or
// PostgreSQL), with two real connections contending as two processes would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from './database.ts';
import { createTestApp } from '@tazamun/server/testing/test-app';
import { underSeedLock } from './seed-lock.ts';

test('the seed lock lets one seeder run at a time and the others skip', async (t) => {
  const { app, config } = await createTestApp(t);
  // a second process's own pool on the same database
  const other = openDatabase(config.database);
  t.after(() => other.destroy());
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  let inside: () => void = () => undefined;
  const running = new Promise<void>((r) => (inside = r));
  const first = underSeedLock(app.deps.db, async () => {
    inside();
    await held;
    return 'seeded by the first';
  });
  // the first holds the lock from here until `held` resolves
  await running;
  const runs: string[] = [];
  assert.equal(await underSeedLock(other, async () => void runs.push('second')), null);
  assert.deepEqual(runs, [], 'the second never ran');
  release();
  assert.equal(await first, 'seeded by the first');
  assert.equal(await underSeedLock(other, async () => 'after release'), 'after release');
});
