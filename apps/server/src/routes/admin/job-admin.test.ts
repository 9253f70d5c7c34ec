// Job administration through the admin API, on a real queue running real alignments: a job that timed
// out is listed with its error, its worker, attempts and timings, and retried (it then completes);
// queued and running jobs are cancelled; actions on jobs in the wrong state are refused with 409.
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AdminJobAction, AdminJobList } from '@tazamun/contracts/admin-jobs';
import { approvedUser, bearer, expectError, makeAdmin } from '@tazamun/server/testing/test-app';
import {
  createJobsTestApp,
  evalClip,
  longClip,
  tempDir,
  upload,
  waitForStatus,
} from '@tazamun/server/testing/jobs-test-app';

test('admin jobs: a timed-out job is listed with its error and retried; refusals; non-admins', async (t) => {
  // 1 ms for any job: every run times out, as on an overloaded server
  const { app } = await createJobsTestApp(t, { timeoutBaseMs: 1, timeoutPerAudioSecond: 0 });
  const admin = await approvedUser(app, { email: 'ops@example.org' });
  await makeAdmin(app, admin.id);
  const h = bearer(admin.access);
  const user = await approvedUser(app, { email: 'reem@example.org' });
  const clip = evalClip();
  const send = async () => {
    const res = await upload(app, user.access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: clip.text },
      { name: 'audio', filename: 'a.wav', content: readFileSync(clip.wav) },
    ]);
    assert.equal(res.statusCode, 202, res.body);
    return res.json().id as string;
  };
  const ids = [await send(), await send()];
  for (const id of ids) assert.equal((await waitForStatus(app, user.access, id)).status, 'failed');

  expectError(await app.inject({ url: '/api/admin/jobs/' }), 401, 'not_authenticated');
  expectError(
    await app.inject({ url: '/api/admin/jobs/', headers: bearer(user.access) }),
    403,
    'admin_required',
  );

  const failed = AdminJobList.parse(
    (await app.inject({ url: '/api/admin/jobs/?status=failed', headers: h })).json(),
  ).jobs;
  assert.deepEqual(failed.map((j) => j.alignment_id).sort(), [...ids].sort());
  for (const j of failed) {
    assert.equal(j.kind, 'align');
    assert.equal(j.status, 'failed');
    assert.equal(j.error_code, 'timeout');
    assert.equal(j.last_error, 'timed out after 1 ms');
    assert.equal(j.attempts, 1);
    assert.equal(j.max_attempts, 3);
    assert.equal(j.worker_id, app.jobs.queue.workerId);
    assert.equal(j.user_email, 'reem@example.org');
    assert.equal(j.language, 'eng');
    assert.ok(j.started_at !== null && j.finished_at !== null && j.started_at <= j.finished_at);
  }
  // the default list holds what needs an eye: here the two failed jobs
  const open = AdminJobList.parse((await app.inject({ url: '/api/admin/jobs/', headers: h })).json()).jobs;
  assert.deepEqual(
    open.map((j) => j.status),
    ['failed', 'failed'],
  );
  expectError(
    await app.inject({ url: '/api/admin/jobs/?status=stuck', headers: h }),
    400,
    'validation_error',
  );

  // as after a restart with a larger JOB_TIMEOUT_BASE: the retried job gets the new limit and completes
  app.jobs.config.timeoutBaseMs = 600_000;
  const target = failed.find((j) => j.alignment_id === ids[0])!;
  const retried = AdminJobAction.parse(
    (await app.inject({ method: 'POST', url: `/api/admin/jobs/${target.id}/retry/`, headers: h })).json(),
  );
  assert.equal(retried.result, 'retried');
  assert.equal(retried.job.attempts, 0);
  assert.equal(retried.job.error_code, null);
  const done = await waitForStatus(app, user.access, ids[0]!);
  assert.equal(done.status, 'completed');
  const after = AdminJobList.parse(
    (await app.inject({ url: '/api/admin/jobs/?status=completed', headers: h })).json(),
  ).jobs;
  assert.deepEqual(
    after.map((j) => [j.id, j.attempts]),
    [[target.id, 1]],
  );
  // the other one is still failed; a completed job cannot be retried, an unknown one is 404
  assert.equal(
    AdminJobList.parse((await app.inject({ url: '/api/admin/jobs/?status=failed', headers: h })).json()).jobs
      .length,
    1,
  );
  const again = expectError(
    await app.inject({ method: 'POST', url: `/api/admin/jobs/${target.id}/retry/`, headers: h }),
    409,
    'job_not_retryable',
  );
  assert.equal(again.detail, 'Only a failed job can be retried; this one is completed.');
  expectError(
    await app.inject({ method: 'POST', url: '/api/admin/jobs/nope/retry/', headers: h }),
    404,
    'not_found',
  );
  expectError(
    await app.inject({ method: 'POST', url: `/api/admin/jobs/${target.id}/cancel/`, headers: h }),
    409,
    'job_not_cancellable',
  );
});

test('admin jobs: cancel a running job and a queued one behind it', async (t) => {
  const { app } = await createJobsTestApp(t);
  const admin = await approvedUser(app, { email: 'ops@example.org' });
  await makeAdmin(app, admin.id);
  const h = bearer(admin.access);
  const user = await approvedUser(app, { email: 'omar@example.org' });
  const long = longClip(tempDir(t));
  const send = async () => {
    const res = await upload(app, user.access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: long.text },
      { name: 'audio', filename: 'long.wav', content: readFileSync(long.wav) },
    ]);
    assert.equal(res.statusCode, 202, res.body);
    return res.json().id as string;
  };
  const running = await send();
  const queued = await send();
  await waitForStatus(app, user.access, running, ['processing']);
  const list = AdminJobList.parse((await app.inject({ url: '/api/admin/jobs/', headers: h })).json()).jobs;
  const byAlignment = new Map(list.map((j) => [j.alignment_id, j]));
  // one worker thread: the second job waits behind the first
  assert.equal(byAlignment.get(running)!.status, 'processing');
  assert.equal(byAlignment.get(queued)!.status, 'queued');
  assert.equal(byAlignment.get(queued)!.worker_id, null);

  for (const id of [queued, running]) {
    const job = byAlignment.get(id)!;
    const res = AdminJobAction.parse(
      (await app.inject({ method: 'POST', url: `/api/admin/jobs/${job.id}/cancel/`, headers: h })).json(),
    );
    assert.equal(res.result, 'cancelled');
    assert.equal(res.job.status, 'cancelled');
    assert.equal((await waitForStatus(app, user.access, id)).status, 'cancelled');
  }
  // the queued job never ran: its unit came back; the running one had started work
  const quota = (await app.inject({ url: '/api/auth/quota/', headers: bearer(user.access) })).json();
  assert.equal(quota.quota.used_today, 1);
});
