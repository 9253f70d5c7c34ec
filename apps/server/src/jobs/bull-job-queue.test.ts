// The BullMQ queue against a real redis-server, in one process: an API app that runs no jobs and a
// worker app sharing its database. A queued cancel takes the job out of BullMQ and gives the unit
// back; rows that BullMQ lost (a dead runner's, a failed add) are found by the reconciler, taken over
// once, and failed cleanly with the unit back when they already ran as often as allowed; a delivery
// for a job whose runner still renews its lease waits instead of running it twice. A cancel sent
// to the API stops the job running in the worker. An engine fault in a BullMQ worker retires its thread
// and the job comes back through BullMQ once, after its backoff; a second fault fails it with its cause.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Queue } from 'bullmq';
import { buildApp } from '../app.ts';
import { ManualClock } from '../clock.ts';
import type { Config } from '../config.ts';
import { jobRowsFinal } from '@tazamun/server/testing/job-rows';
import { startRedis } from '@tazamun/server/testing/redis-server';
import { approvedUser, bearer, testConfig } from '@tazamun/server/testing/test-app';
import {
  engineFaultUploads,
  evalClip,
  longClip,
  tempDir,
  upload,
  waitForStatus,
} from '@tazamun/server/testing/jobs-test-app';
import { BULL_QUEUE_NAME } from './bull-job-queue.ts';
import type { EngineFaultHook } from '@tazamun/aligner/host';
import { loadConfig } from '../config.ts';
import { until } from '@tazamun/server/testing/until';

/** Closers run last-in first-out in one hook, so the apps let go of Redis before it stops. */
function closers(t: TestContext): (close: () => Promise<unknown> | void) => void {
  const all: (() => Promise<unknown> | void)[] = [];
  t.after(async () => {
    for (const c of all.reverse()) await c();
  });
  return (c) => all.push(c);
}

/** Waits for a condition driven by the apps; the deadline only turns a hang into a failure. */

async function app(
  onClose: (close: () => Promise<unknown>) => void,
  config: Config,
  redisUrl: string,
  concurrency: number,
  engineFaultHook?: EngineFaultHook,
) {
  const a = await buildApp(config, {
    engineFaultHook,
    clock: new ManualClock(new Date().toISOString()),
    logger: false,
    redisUrl,
    jobs: {
      ...loadConfig({}).jobs,
      concurrency,
      leaseMs: 3000,
      retryBackoffMs: 300,
      // a guard for the hooked worker's jobs, not a speed requirement
      ...(engineFaultHook ? { timeoutBaseMs: 600_000 } : {}),
      demoMediaDir: null,
      seedDemos: false,
    },
  });
  await a.ready();
  onClose(() => a.close());
  return a;
}

test('BullMQ queue: cancel, reconcile, take over a dead runner once, give up after max attempts', async (t) => {
  const onClose = closers(t);
  const redis = await startRedis();
  onClose(() => redis.stop());
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-bull-'));
  onClose(() => rmSync(dir, { recursive: true, force: true }));
  const config = testConfig(dir);
  const api = await app(onClose, config, redis.url, 0);
  assert.equal(api.jobs.kind, 'bullmq');
  const bull = new Queue(BULL_QUEUE_NAME, { connection: { url: redis.url }, prefix: 'tazamun' });
  onClose(() => bull.close());
  const db = api.deps.db;

  const u = await approvedUser(api);
  const clip = evalClip();
  const send = async (c: { wav: string; text: string } = clip, inBull = true) => {
    const res = await upload(api, u.access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: c.text },
      { name: 'audio', filename: 'a.wav', content: readFileSync(c.wav) },
    ]);
    assert.equal(res.statusCode, 202, res.body);
    const id = res.json().id as string;
    const job = await db
      .selectFrom('jobs')
      .selectAll()
      .where('alignment_id', '=', id)
      .executeTakeFirstOrThrow();
    // the BullMQ add runs after the 202 (wake() after the commit): while no worker runs, wait for
    // it, so that what the test does next to the BullMQ job (remove it, look at it) is not
    // overtaken by the add
    if (inBull) await until(`job ${job.id} reaches BullMQ`, async () => (await bull.getJob(job.id)) != null);
    return { id, job: job.id };
  };
  const used = async () =>
    (await api.inject({ url: '/api/auth/quota/', headers: bearer(u.access) })).json().quota
      .used_today as number;
  const bullState = async (jobId: string) => (await bull.getJob(jobId))?.getState() ?? 'absent';

  // no worker runs yet: every upload waits in BullMQ under its row's id, with its place in the fair
  // order as its priority (jobs/fair-share.ts)
  const cancelled = await send();
  assert.equal(await bullState(cancelled.job), 'prioritized');
  const res = await api.inject({
    method: 'POST',
    url: `/api/alignments/${cancelled.id}/cancel/`,
    headers: bearer(u.access),
  });
  assert.equal(res.json().status, 'cancelled');
  assert.equal(await bullState(cancelled.job), 'absent', 'the cancelled job left BullMQ');
  assert.equal(await used(), 0, 'a job cancelled before it ran gives its unit back');

  // a runner died holding this job and Redis lost it: processing, lease over, nothing in BullMQ
  const orphan = await send();
  await bull.remove(orphan.job);
  const past = new Date(Date.now() - 60_000).toISOString();
  await db
    .updateTable('jobs')
    .set({ status: 'processing', attempts: 1, worker_id: 'gone:1:dead', lease_until: past })
    .where('id', '=', orphan.job)
    .execute();
  // the same, after it already ran as often as allowed
  const spent = await send();
  await db
    .updateTable('jobs')
    .set({ status: 'processing', attempts: 3, worker_id: 'gone:1:dead', lease_until: past })
    .where('id', '=', spent.job)
    .execute();
  // an upload whose add never reached Redis
  const lost = await send();
  await bull.remove(lost.job);
  // BullMQ hands out a job whose runner still renews its lease (Redis was away, not the runner)
  const alive = await send();
  await db
    .updateTable('jobs')
    .set({
      status: 'processing',
      attempts: 1,
      worker_id: 'alive:1:busy',
      lease_until: new Date(Date.now() + 600_000).toISOString(),
    })
    .where('id', '=', alive.job)
    .execute();
  assert.equal(await used(), 4);

  const worker = await app(onClose, { ...config }, redis.url, 1);
  const workerId = worker.jobs.queue.workerId;

  // the delivery waits for the lease instead of running the job a second time beside its runner
  await until('the live runner job is delayed', async () => (await bullState(alive.job)) === 'delayed');
  const untouched = await db.selectFrom('jobs').selectAll().where('id', '=', alive.job).executeTakeFirst();
  assert.equal(untouched!.worker_id, 'alive:1:busy');
  assert.equal(Number(untouched!.attempts), 1);
  // then that runner dies: its lease runs out, and the delayed delivery (brought forward) takes over
  await db
    .updateTable('jobs')
    .set({ lease_until: new Date(Date.now() - 1000).toISOString() })
    .where('id', '=', alive.job)
    .execute();
  await (await bull.getJob(alive.job))!.promote();
  for (const a of [orphan, lost, alive])
    assert.equal((await waitForStatus(api, u.access, a.id)).status, 'completed');
  const failed = await waitForStatus(api, u.access, spent.id);
  assert.equal(failed.status, 'failed');
  const error = failed.error as { code: string; quota_refunded: boolean };
  assert.equal(error.code, 'job_interrupted');
  assert.equal(error.quota_refunded, true);

  // the handler completes the alignment, then the queue its job row: wait for the rows too
  const rows = await jobRowsFinal(db, [orphan.job, spent.job, lost.job, alive.job]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  assert.deepEqual(byId.get(orphan.job), {
    id: orphan.job,
    status: 'completed',
    attempts: 2,
    worker_id: workerId,
  });
  assert.deepEqual(byId.get(lost.job), {
    id: lost.job,
    status: 'completed',
    attempts: 1,
    worker_id: workerId,
  });
  assert.deepEqual(byId.get(alive.job), {
    id: alive.job,
    status: 'completed',
    attempts: 2,
    worker_id: workerId,
  });
  assert.equal(byId.get(spent.job)!.status, 'failed');
  assert.equal(byId.get(spent.job)!.attempts, 3, 'not run a fourth time');
  assert.equal(await used(), 3, 'the interrupted job gave its unit back; the completed ones kept theirs');
  for (const j of [orphan.job, spent.job, lost.job, alive.job])
    assert.equal(await bullState(j), 'absent', 'BullMQ keeps nothing once the row is final');

  // a cancel sent to the API reaches the job running in the worker app (relayed wake, or its heartbeat)
  const long = await send(longClip(tempDir(t)), false);
  await waitForStatus(api, u.access, long.id, ['processing']);
  const cancel = await api.inject({
    method: 'POST',
    url: `/api/alignments/${long.id}/cancel/`,
    headers: bearer(u.access),
  });
  assert.equal(cancel.statusCode, 200, cancel.body);
  assert.equal((await waitForStatus(api, u.access, long.id)).status, 'cancelled');
  const [longRow] = await jobRowsFinal(db, [long.job]);
  assert.equal(longRow!.status, 'cancelled');
  assert.equal(longRow!.attempts, 1);
  assert.equal(await used(), 4, 'a job cancelled while running keeps its unit');
  assert.equal(await bullState(long.job), 'absent');
});

test('BullMQ worker: an engine fault retires the thread, the job is retried once, a second fault is reported', async (t) => {
  const onClose = closers(t);
  const redis = await startRedis();
  onClose(() => redis.stop());
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-bull-fault-'));
  onClose(() => rmSync(dir, { recursive: true, force: true }));
  const config = testConfig(dir);
  const hook: EngineFaultHook = { faults: 0 };
  const api = await app(onClose, config, redis.url, 0);
  const worker = await app(onClose, { ...config }, redis.url, 1, hook);
  const bull = new Queue(BULL_QUEUE_NAME, { connection: { url: redis.url }, prefix: 'tazamun' });
  onClose(() => bull.close());
  const db = api.deps.db;
  const u = await approvedUser(api);
  const { send, used, jobRow: row } = engineFaultUploads(api, u.access);
  const workerId = worker.jobs.queue.workerId;

  hook.faults = 1;
  const once = await send(true);
  assert.equal((await waitForStatus(api, u.access, once.id)).status, 'completed');
  await jobRowsFinal(db, [once.job]);
  assert.deepEqual(await row(once.job), {
    status: 'completed',
    attempts: 2,
    failures: 1,
    run_after: null,
    worker_id: workerId,
  });
  assert.deepEqual(worker.jobs.engine.stats, { started: 2, retired: 1 });

  hook.faults = 2;
  const twice = await send(true);
  const failed = await waitForStatus(api, u.access, twice.id);
  assert.equal(failed.status, 'failed');
  assert.deepEqual(failed.error, {
    code: 'engine_failed',
    detail:
      'The alignment engine failed on this job, also on a fresh engine: memory access out of bounds (test hook). Your quota unit was given back; please try again later.',
    quota_refunded: true,
  });
  await jobRowsFinal(db, [twice.job]);
  assert.deepEqual(await row(twice.job), {
    status: 'failed',
    attempts: 2,
    failures: 2,
    run_after: null,
    worker_id: workerId,
  });
  assert.deepEqual(worker.jobs.engine.stats, { started: 3, retired: 3 });

  const next = await send(false);
  assert.equal((await waitForStatus(api, u.access, next.id)).status, 'completed');
  assert.deepEqual(worker.jobs.engine.stats, { started: 4, retired: 3 });
  assert.equal(await used(), 2, 'the reported failure gave its unit back');
  for (const j of [once.job, twice.job, next.job])
    assert.equal((await bull.getJob(j)) ?? 'absent', 'absent', 'BullMQ keeps nothing once the row is final');
});
