// Workers register a heartbeat (issue 19): every process that runs jobs renews its `workers` row, the
// API counts the live ones and shows each one's runs, so a worker whose engine fails every job no longer
// looks healthy; a process that stops removes its row, one that died stops counting after its lease.
// (One app here: two apps in one process on one SQLite file block each other's event loop.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { approvedUser, bearer, expectError, makeAdmin } from '@tazamun/server/testing/test-app';
import { createJobsTestApp, evalClip, upload, waitForStatus } from '@tazamun/server/testing/jobs-test-app';
import { ENGINE_FAULT_MARKER } from '@tazamun/aligner/host';
import type { EngineFaultHook } from '@tazamun/aligner/host';
import { until } from '@tazamun/server/testing/until';

test('live workers are counted from their heartbeats, with their runs; a stopped one leaves', async (t) => {
  const hook: EngineFaultHook = { faults: 0 };
  const worker = await createJobsTestApp(
    t,
    { concurrency: 1, retryBackoffMs: 100 },
    {},
    { engineFaultHook: hook },
  );
  // the routes of the same app read the rows, as an API process on the same database would
  const api = worker;
  const admin = await approvedUser(api.app);
  await makeAdmin(api.app, admin.id);
  const list = async () => {
    const res = await api.app.inject({ url: '/api/admin/workers/', headers: bearer(admin.access) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { live: number; workers: Record<string, unknown>[] };
  };
  const id = worker.app.jobs.queue.workerId;
  await until('the worker registered', async () => (await list()).live === 1);
  const first = await list();
  assert.deepEqual(
    { ...first.workers[0], started_at: undefined, heartbeat_at: undefined },
    {
      id,
      hostname: id.split(':')[0],
      pid: process.pid,
      transport: 'database',
      concurrency: 1,
      running: 0,
      completed: 0,
      failed: 0,
      stopping: false,
      live: true,
      started_at: undefined,
      heartbeat_at: undefined,
    },
  );

  // a process that died a minute ago: listed, not live
  const db = api.app.deps.db;
  const minuteAgo = new Date(Date.now() - 60_000).toISOString();
  await db
    .insertInto('workers')
    .values({
      id: 'gone:1:dead',
      hostname: 'gone',
      pid: 1,
      transport: 'database',
      concurrency: 2,
      running: 1,
      completed: 5,
      failed: 0,
      stopping: 0,
      lease_ms: 30_000,
      started_at: minuteAgo,
      heartbeat_at: minuteAgo,
    })
    .execute();
  const withDead = await list();
  assert.equal(withDead.live, 1);
  assert.deepEqual(
    withDead.workers.map((w) => [w.id, w.live]),
    [
      ['gone:1:dead', false],
      [id, true],
    ],
  );

  // an engine that fails: both runs of the job show as failed runs of this worker
  const u = await approvedUser(api.app);
  const clip = evalClip();
  hook.faults = 2;
  const res = await upload(api.app, u.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: `${ENGINE_FAULT_MARKER}${clip.text}` },
    { name: 'audio', filename: 'a.wav', content: readFileSync(clip.wav) },
  ]);
  assert.equal(res.statusCode, 202, res.body);
  assert.equal((await waitForStatus(api.app, u.access, res.json().id as string)).status, 'failed');
  await until('the heartbeat carries the failed runs', async () => {
    const w = (await list()).workers.find((x) => x.id === id);
    return w?.failed === 2;
  });
  const mine = (await list()).workers.find((x) => x.id === id)!;
  assert.deepEqual([mine.completed, mine.failed, mine.running], [0, 2, 0]);

  // only administrators see it
  const other = await approvedUser(api.app);
  expectError(
    await api.app.inject({ url: '/api/admin/workers/', headers: bearer(other.access) }),
    403,
    'admin_required',
  );

  // a worker that stops removes its row (its queue stops; the routes still answer)
  await worker.app.jobs.close();
  const after = await list();
  assert.deepEqual(
    { live: after.live, ids: after.workers.map((w) => w.id) },
    { live: 0, ids: ['gone:1:dead'] },
  );
});
