// UserFiles maps stored relative paths to keys and clears what crashed processes left in DATA_DIR/tmp.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalFileStore } from './storage.ts';
import { UserFiles } from './user-files.ts';
import { THIS_HOST, tempOwner, tempPath } from './local-copy.ts';

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

test('temp files of a killed process of this host are swept at once; live and foreign ones stay', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-userfiles-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const files = new UserFiles(dir, new LocalFileStore(join(dir, 'files')));
  // a real process that has exited: its pid names no live process
  const dead = spawnSync(process.execPath, ['-e', '']).pid!;
  const mine = await tempPath(files.tmpDir, '.upload');
  writeFileSync(mine, 'partial upload of this live process');
  const orphan = join(files.tmpDir, `${THIS_HOST}~${dead}~0b5e.upload`);
  writeFileSync(orphan, 'partial upload of a killed process');
  const foreign = join(files.tmpDir, `other-host.example~${dead}~77aa.upload`);
  writeFileSync(foreign, 'another machine sharing DATA_DIR may still be writing this');
  assert.deepEqual(tempOwner(basename(mine)), { host: THIS_HOST, pid: process.pid });
  assert.equal(await files.sweepTemp(), 1);
  assert.deepEqual(readdirSync(files.tmpDir).sort(), [basename(foreign), basename(mine)].sort());
});
