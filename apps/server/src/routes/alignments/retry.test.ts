// Retrying a failed alignment through the real HTTP app and engine: the same files and options run
// again, one quota unit per attempt like an upload, and only failed or cancelled alignments qualify.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { approvedUser, bearer, expectError } from '@tazamun/server/testing/test-app';
import { createJobsTestApp, evalClip, upload, waitForStatus } from '@tazamun/server/testing/jobs-test-app';

const quota = async (app: FastifyInstance, access: string) =>
  (await app.inject({ url: '/api/auth/quota/', headers: bearer(access) })).json().quota as {
    used_today: number;
    daily_limit: number;
  };

const retry = (app: FastifyInstance, access: string, id: string) =>
  app.inject({ method: 'POST', url: `/api/alignments/${id}/retry/`, headers: bearer(access) });

test('a failed alignment is retried with its files and options, then completes', async (t) => {
  // Every job times out at first (as on an overloaded server); the retry runs with the normal limit.
  const { app } = await createJobsTestApp(t, { timeoutBaseMs: 1, timeoutPerAudioSecond: 0 });
  const owner = await approvedUser(app);
  const other = await approvedUser(app);
  const clip = evalClip();
  const res = await upload(app, owner.access, [
    // ISO 639-1 in, ISO 639-3 out.
    { name: 'language', value: 'en' },
    { name: 'title', value: 'Retry me' },
    { name: 'precision', value: 'high' },
    { name: 'remove_fillers', value: 'true' },
    { name: 'text', value: clip.text },
    { name: 'audio', filename: 'clip.wav', content: readFileSync(clip.wav) },
  ]);
  assert.equal(res.statusCode, 202, res.body);
  assert.equal(res.json().language, 'eng');
  const id = res.json().id as string;
  const failed = await waitForStatus(app, owner.access, id);
  assert.equal(failed.status, 'failed');
  assert.equal((failed.error as { code: string }).code, 'timeout');
  assert.equal((await quota(app, owner.access)).used_today, 0, 'the time-out gave the unit back');

  expectError(await retry(app, other.access, id), 404, 'not_found');

  app.jobs.config.timeoutBaseMs = 600_000;
  const again = await retry(app, owner.access, id);
  assert.equal(again.statusCode, 202, again.body);
  const body = again.json();
  assert.equal(body.id, id);
  assert.equal(body.status, 'queued');
  assert.equal(body.error, null);
  assert.equal(body.language, 'eng');
  assert.equal(body.title, 'Retry me');
  assert.equal(body.options.precision, 'high');
  assert.equal(body.options.remove_fillers, true);
  assert.equal((await quota(app, owner.access)).used_today, 1, 'the new attempt uses a unit');

  const done = await waitForStatus(app, owner.access, id);
  assert.equal(done.status, 'completed');
  assert.equal(done.error, null);
  const detail = (await app.inject({ url: `/api/alignments/${id}/`, headers: bearer(owner.access) })).json();
  assert.equal(detail.original_text, clip.text);
  assert.equal(detail.words, clip.text.trim().split(/\s+/).length);
  const jobs = await app.deps.db
    .selectFrom('jobs' as never)
    .select(['status' as never])
    .where('alignment_id' as never, '=', id as never)
    .execute();
  assert.deepEqual(jobs.map((j) => (j as { status: string }).status).sort(), ['completed', 'failed']);

  // Completed: nothing to retry, and no unit taken for asking.
  const refused = expectError(await retry(app, owner.access, id), 409, 'alignment_not_retryable');
  assert.match(String(refused.detail), /completed/);
  assert.equal((await quota(app, owner.access)).used_today, 1);
});

test('a retry needs a unit of quota like an upload and leaves the alignment as it was without one', async (t) => {
  const { app } = await createJobsTestApp(t, { timeoutBaseMs: 1, timeoutPerAudioSecond: 0 });
  const u = await approvedUser(app);
  const clip = evalClip();
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    const res = await upload(app, u.access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: clip.text },
      { name: 'audio', filename: `a${i}.wav`, content: readFileSync(clip.wav) },
    ]);
    assert.equal(res.statusCode, 202, res.body);
    ids.push(res.json().id as string);
  }
  for (const id of ids) assert.equal((await waitForStatus(app, u.access, id)).status, 'failed');
  await app.deps.db.updateTable('users').set({ daily_limit: 1 }).where('id', '=', u.id).execute();

  // The first retry takes the only unit (and fails again by time-out, which gives it back)…
  assert.equal((await retry(app, u.access, ids[0]!)).statusCode, 202);
  assert.equal((await waitForStatus(app, u.access, ids[0]!)).status, 'failed');
  assert.equal((await quota(app, u.access)).used_today, 0);
  // …then another upload takes today's unit (by hand here: quota_day is already today) and the second
  // retry is refused with the upload's error, the alignment untouched.
  await app.deps.db.updateTable('users').set({ used_today: 1 }).where('id', '=', u.id).execute();
  expectError(await retry(app, u.access, ids[1]!), 429, 'quota_exhausted');
  const still = (await app.inject({ url: `/api/alignments/${ids[1]}/`, headers: bearer(u.access) })).json();
  assert.equal(still.status, 'failed');
  assert.equal(still.error.code, 'timeout');
  assert.equal((await quota(app, u.access)).used_today, 1);
});
