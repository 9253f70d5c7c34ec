// UserFiles maps stored relative paths to keys and clears what crashed processes left in DATA_DIR/tmp.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalFileStore } from './storage.ts';
import { UserFiles } from './user-files.ts';

test('keys stay inside the user prefix; only old temp files are swept', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-userfiles-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const files = new UserFiles(dir, new LocalFileStore(join(dir, 'files')));
  assert.equal(files.key('u-1', 'alignments/a-1/audio.wav'), 'users/u-1/alignments/a-1/audio.wav');
  assert.throws(() => files.key('u-1', '../u-2/avatar/x.webp'), /unsafe storage key/);
  assert.throws(() => files.prefix('../u'), /unsafe user id/);

  assert.equal(await files.sweepTemp(), 0, 'no temp folder yet');
  mkdirSync(files.tmpDir, { recursive: true });
  writeFileSync(join(files.tmpDir, 'fresh.upload'), 'x');
  writeFileSync(join(files.tmpDir, 'stale.upload'), 'x');
  mkdirSync(join(files.tmpDir, 'video-stale'));
  writeFileSync(join(files.tmpDir, 'video-stale', 'v.mp4'), 'x');
  const twoDaysAgo = new Date(Date.now() - 48 * 3_600_000);
  utimesSync(join(files.tmpDir, 'stale.upload'), twoDaysAgo, twoDaysAgo);
  utimesSync(join(files.tmpDir, 'video-stale'), twoDaysAgo, twoDaysAgo);
  assert.equal(await files.sweepTemp(), 2);
  assert.deepEqual(readdirSync(files.tmpDir), ['fresh.upload']);
});
