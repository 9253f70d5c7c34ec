// Cancelling a queued job (quota back) and a running one (worker thread terminated, no refund); the
// pool keeps working afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { approvedUser, bearer, expectError } from '../testing/test-app.ts';
import { createJobsTestApp, evalClip, upload, waitForStatus } from '../routes/alignments/test-support.ts';

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
