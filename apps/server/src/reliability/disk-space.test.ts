// The free-space check fails closed and says what it sees (issue 29, item 5): a DATA_DIR that does not
// exist yet is measured on the disk it will be created on (it used to let the first upload of a fresh
// API through unchecked), readiness turns degraded with `disk: low_space` while the disk is below
// MIN_FREE_DISK_MB, and /metrics shows the free bytes. A margin above the machine's whole free space
// stands in for a full disk here; disk-full.test.ts fills a real one (as root).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { approvedUser, createTestApp, expectError } from '@tazamun/server/testing/test-app';
import { evalClip, upload } from '@tazamun/server/testing/jobs-test-app';
import { freeBytes } from './disk-space.ts';

const TOKEN = 'disk-space-test-scrape-token-0123';

test('a DATA_DIR not created yet is measured on its parent disk', async (t) => {
  const { dir } = await createTestApp(t);
  const here = await freeBytes(dir);
  const below = await freeBytes(join(dir, 'not', 'yet', 'there'));
  // the same file system, read twice: equal but for what other processes wrote meanwhile
  assert.ok(Math.abs(here - below) < 64 * 1024 * 1024, `${here} vs ${below}`);
});

test('below MIN_FREE_DISK_MB: uploads 507 even into a missing DATA_DIR, readiness degraded, the gauge', async (t) => {
  const { app, dir } = await createTestApp(t, { metricsToken: TOKEN }, (d) => {
    return {
      // files would go to a folder that does not exist yet; the database lives beside it
      dataDir: join(d, 'data-not-created-yet'),
      database: { kind: 'sqlite', file: join(d, 'tazamun.sqlite') },
      minFreeDiskBytes: Number.MAX_SAFE_INTEGER,
    };
  });
  const free = await freeBytes(dir);
  const user = await approvedUser(app);
  const clip = evalClip();
  const res = await upload(app, user.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: clip.text },
    { name: 'audio', filename: 'a.wav', content: readFileSync(clip.wav) },
  ]);
  expectError(res, 507, 'insufficient_storage');

  const ready = await app.inject({ url: '/api/ready/' });
  assert.equal(ready.statusCode, 200);
  assert.deepEqual(ready.json(), {
    ready: true,
    degraded: true,
    checks: { database: 'ok', workers: 'ok', disk: 'low_space' },
  });

  const scrape = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  const line = scrape.body.split('\n').find((l) => l.startsWith('tazamun_disk_free_bytes'));
  const gauge = Number(line?.slice(line.lastIndexOf(' ') + 1));
  assert.ok(Math.abs(gauge - free) < 64 * 1024 * 1024, `gauge ${gauge} vs statfs ${free}`);
  // the refusal is deliberate: not counted as a server error
  assert.doesNotMatch(scrape.body, /^tazamun_http_errors_total\{/m);
});
