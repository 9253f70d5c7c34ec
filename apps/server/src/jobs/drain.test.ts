// Graceful drain (issue 19): a process asked to stop lets its running job finish for JOB_DRAIN_TIMEOUT
// before handing back what still runs. Closed with a long drain, the job completes at its first run;
// with a drain shorter than the job, it goes back to the queue without using an attempt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../app.ts';
import { ManualClock } from '../clock.ts';
import { approvedUser, testConfig } from '@tazamun/server/testing/test-app';
import { longClip, tempDir, upload, waitForStatus } from '@tazamun/server/testing/jobs-test-app';
import { loadConfig } from '../config.ts';

async function closeDuringJob(t: Parameters<typeof tempDir>[0], drainMs: number) {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-drain-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const config = testConfig(dir);
  const app = await buildApp(config, {
    clock: new ManualClock(new Date().toISOString()),
    logger: false,
    jobs: {
      ...loadConfig({}).jobs,
      concurrency: 1,
      leaseMs: 3000,
      pollMs: 200,
      timeoutBaseMs: 600_000,
      drainMs,
      demoMediaDir: null,
    },
  });
  await app.ready();
  const u = await approvedUser(app);
  const clip = longClip(tempDir(t));
  const res = await upload(app, u.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: clip.text },
    { name: 'audio', filename: 'long.wav', content: readFileSync(clip.wav) },
  ]);
  assert.equal(res.statusCode, 202, res.body);
  const id = res.json().id as string;
  await waitForStatus(app, u.access, id, ['processing']);
  // the database outlives the app here: read the rows through a second app on the same file
  await app.close();
  const after = await buildApp(testConfig(dir, { database: config.database }), {
    logger: false,
    jobs: { ...loadConfig({}).jobs, concurrency: 0, demoMediaDir: null },
  });
  t.after(() => after.close());
  const adb = after.deps.db;
  const job = await adb
    .selectFrom('jobs')
    .select(['status', 'attempts', 'worker_id'])
    .where('alignment_id', '=', id)
    .executeTakeFirstOrThrow();
  const alignment = await adb
    .selectFrom('alignments')
    .select(['status', 'words'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { job: { ...job, attempts: Number(job.attempts) }, alignment, words: clip.text.split(/\s+/).length };
}

test('a stop with JOB_DRAIN_TIMEOUT lets the running job finish', async (t) => {
  const { job, alignment, words } = await closeDuringJob(t, 600_000);
  assert.deepEqual(
    { ...job, worker_id: undefined },
    { status: 'completed', attempts: 1, worker_id: undefined },
  );
  assert.deepEqual(alignment, { status: 'completed', words });
});

test('a drain shorter than the job hands it back without using an attempt', async (t) => {
  const { job, alignment } = await closeDuringJob(t, 50);
  assert.deepEqual(job, { status: 'queued', attempts: 0, worker_id: null });
  assert.equal(alignment.status, 'queued');
});
