// An engine fault on the database queue, tripped on purpose by the test hook (the engine host's
// EngineFaultHook): the faulted thread is retired, the job runs once more on a fresh thread after its
// backoff, and a second fault fails the job with its cause in the user's language, the unit given back
// and the stack in the log. The hook leaves a faulted thread broken, so a host that kept it would fail
// every later job.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { approvedUser, bearer } from '@tazamun/server/testing/test-app';
import { jobRowsFinal } from '@tazamun/server/testing/job-rows';
import { createJobsTestApp, engineFaultUploads, waitForStatus } from '@tazamun/server/testing/jobs-test-app';
import type { EngineFaultHook } from '@tazamun/aligner/host';

interface LogLine {
  level: number;
  msg: string;
  job?: string;
  code?: string;
  err?: { type: string; message: string; stack: string };
}

test('an engine fault retires the thread and retries the job once; a second fault is reported', async (t) => {
  const hook: EngineFaultHook = { faults: 0 };
  const logs: LogLine[] = [];
  const stream = { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) };
  const { app } = await createJobsTestApp(
    t,
    { concurrency: 1, retryBackoffMs: 300, timeoutBaseMs: 600_000 },
    {},
    { engineFaultHook: hook, logger: { level: 'info', stream } },
  );
  const db = app.deps.db;
  const u = await approvedUser(app);
  const { send, used, jobRow } = engineFaultUploads(app, u.access);

  // one fault: recycled, retried on a fresh thread, completed
  hook.faults = 1;
  const once = await send(true);
  const done = await waitForStatus(app, u.access, once.id);
  assert.equal(done.status, 'completed', JSON.stringify(done));
  await jobRowsFinal(db, [once.job]);
  assert.deepEqual(await jobRow(once.job), {
    status: 'completed',
    attempts: 2,
    failures: 1,
    run_after: null,
    worker_id: app.jobs.queue.workerId,
  });
  assert.deepEqual(app.jobs.engine.stats, { started: 2, retired: 1 });
  assert.equal(await used(), 1);

  // two faults: the retry fails too, and the job reports the engine's cause
  hook.faults = 2;
  const twice = await send(true);
  const failed = await waitForStatus(app, u.access, twice.id);
  assert.equal(failed.status, 'failed');
  assert.deepEqual(failed.error, {
    code: 'engine_failed',
    detail:
      'The alignment engine failed on this job, also on a fresh engine: memory access out of bounds (test hook). Your quota unit was given back; please try again later.',
    quota_refunded: true,
  });
  const fr = await app.inject({
    url: `/api/alignments/${twice.id}/progress/`,
    headers: { ...bearer(u.access), 'accept-language': 'fr' },
  });
  assert.equal(
    (fr.json().error as { detail: string }).detail,
    "Le moteur d'alignement a échoué sur cette tâche, y compris sur un moteur neuf : memory access out of bounds (test hook). Votre unité de quota a été rendue ; veuillez réessayer plus tard.",
  );
  await jobRowsFinal(db, [twice.job]);
  assert.deepEqual(
    { ...(await jobRow(twice.job)), worker_id: undefined },
    { status: 'failed', attempts: 2, failures: 2, run_after: null, worker_id: undefined },
  );
  assert.equal(await used(), 1, 'the failed job gave its unit back');
  assert.deepEqual(app.jobs.engine.stats, { started: 3, retired: 3 });

  // the jobs after them run on a fresh thread and complete
  for (let i = 0; i < 2; i++) {
    const next = await send(false);
    assert.equal((await waitForStatus(app, u.access, next.id)).status, 'completed');
  }
  assert.deepEqual(app.jobs.engine.stats, { started: 4, retired: 3 });
  assert.equal(await used(), 3);

  // the log has each fault with the thread's stack; the first retry, then the reported failure
  const retried = logs.filter((l) => l.msg === 'job failed: retried once after a backoff');
  assert.deepEqual(
    retried.map((l) => [l.job, l.code, l.level]),
    [
      [once.job, 'engine_failed', 40],
      [twice.job, 'engine_failed', 40],
    ],
  );
  for (const l of retried)
    assert.match(l.err!.stack, /^RuntimeError: memory access out of bounds \(test hook\)\n/);
  const reported = logs.filter((l) => l.msg === 'job failed');
  assert.deepEqual(
    reported.map((l) => [l.job, l.code, l.level]),
    [[twice.job, 'engine_failed', 50]],
  );
  assert.match(reported[0]!.err!.stack, /^RuntimeError: memory access out of bounds \(test hook\)\n/);
});
