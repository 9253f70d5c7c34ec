// Cancelling a queued job (quota back) and a running one (worker thread terminated, no refund); the
// pool keeps working afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { approvedUser, bearer, expectError } from '@tazamun/server/testing/test-app';
import {
  createJobsTestApp,
  evalClip,
  longClip,
  tempDir,
  upload,
  waitForStatus,
} from '@tazamun/server/testing/jobs-test-app';

test('cancel a running and a queued alignment', async (t) => {
  const { app } = await createJobsTestApp(t, { concurrency: 1 });
  const u = await approvedUser(app);
  const clip = evalClip();
  const send = () =>
    upload(app, u.access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: clip.text },
      { name: 'audio', filename: 'a.wav', content: readFileSync(clip.wav) },
    ]);
  const first = (await send()).json().id as string;
  const second = (await send()).json().id as string;
  const used = async () =>
    (await app.inject({ url: '/api/auth/quota/', headers: bearer(u.access) })).json().quota.used_today;
  assert.equal(await used(), 2);

  await waitForStatus(app, u.access, first, ['processing']);
  const queued = await app.inject({
    method: 'POST',
    url: `/api/alignments/${second}/cancel/`,
    headers: bearer(u.access),
  });
  assert.equal(queued.statusCode, 200, queued.body);
  assert.equal(queued.json().status, 'cancelled');
  assert.equal(await used(), 1, 'a job cancelled before it ran gives its unit back');

  const running = await app.inject({
    method: 'POST',
    url: `/api/alignments/${first}/cancel/`,
    headers: bearer(u.access),
  });
  assert.equal(running.statusCode, 200, running.body);
  assert.equal(running.json().status, 'cancelled');
  assert.equal(await used(), 1, 'a job cancelled while running keeps its unit');
  const again = await app.inject({
    method: 'POST',
    url: `/api/alignments/${first}/cancel/`,
    headers: bearer(u.access),
  });
  expectError(again, 409, 'job_not_cancellable');
  const jobs = await app.deps.db
    .selectFrom('jobs' as never)
    .selectAll()
    .execute();
  assert.deepEqual((jobs as { status: string }[]).map((j) => j.status).sort(), ['cancelled', 'cancelled']);

  const third = (await send()).json().id as string;
  const done = await waitForStatus(app, u.access, third);
  assert.equal(done.status, 'completed', 'the pool runs the next job after a terminated thread');
  const exp = await app.inject({ url: `/api/alignments/${first}/export/json/`, headers: bearer(u.access) });
  expectError(exp, 409, 'alignment_not_ready');
});

test(
  'deleting an alignment while it runs stops its job and leaves no files',
  { timeout: 300_000 },
  async (t) => {
    const { app, dir } = await createJobsTestApp(t, { concurrency: 1 });
    const u = await approvedUser(app);
    const long = longClip(tempDir(t));
    const res = await upload(app, u.access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: long.text },
      { name: 'audio', filename: 'long.wav', content: readFileSync(long.wav) },
    ]);
    const id = res.json().id as string;
    await waitForStatus(app, u.access, id, ['processing']);
    const del = await app.inject({
      method: 'DELETE',
      url: `/api/alignments/${id}/`,
      headers: bearer(u.access),
    });
    assert.equal(del.statusCode, 204);
    assert.equal(existsSync(join(dir, 'files', 'users', u.id, 'alignments', id)), false);
    const jobs = await app.deps.db
      .selectFrom('jobs' as never)
      .selectAll()
      .execute();
    assert.equal(jobs.length, 0);
    const clip = evalClip();
    const next = await upload(app, u.access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: clip.text },
      { name: 'audio', filename: 'a.wav', content: readFileSync(clip.wav) },
    ]);
    assert.equal((await waitForStatus(app, u.access, next.json().id)).status, 'completed');
    assert.equal(existsSync(join(dir, 'files', 'users', u.id, 'alignments', id)), false, 'nothing recreated');
  },
);
