// GET /api/ready/ as a load balancer uses it, against a real Redis: a frozen Redis (SIGSTOP: it keeps
// the connection and answers nothing) and a stopped one make the answer "degraded" (200, the instance
// still takes uploads), never a hang or a 503 (how long the frozen case takes is `npm run
// bench:platform`'s, docs/benchmarks.md); jobs waiting with no live worker in the heartbeat registry,
// or waiting two minutes with nothing running, are degraded too; an upload is accepted while Redis is
// away. The database-down 503 is covered by reliability/dependency-restart.test.ts, which stops a real
// PostgreSQL; a low disk by reliability/disk-space.test.ts and disk-full.test.ts.
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startRedis } from '@tazamun/server/testing/redis-server';
import { approvedUser } from '@tazamun/server/testing/test-app';
import { createJobsTestApp, evalClip, upload } from '@tazamun/server/testing/jobs-test-app';
import { until } from '@tazamun/server/testing/until';

test('readiness: Redis frozen or down is degraded (200), a stalled backlog is degraded, recovery', async (t) => {
  const redis = await startRedis();
  t.after(() => redis.stop());
  // an API process that only enqueues, as in the scaled-out shape
  const { app } = await createJobsTestApp(t, { concurrency: 0 }, { redisUrl: redis.url });
  const ready = async () => {
    const res = await app.inject({ url: '/api/ready/' });
    return {
      status: res.statusCode,
      body: res.json() as { ready: boolean; degraded: boolean; checks: Record<string, string> },
    };
  };
  assert.deepEqual(await ready(), {
    status: 200,
    body: { ready: true, degraded: false, checks: { database: 'ok', redis: 'ok', workers: 'ok' } },
  });

  // frozen: the probe still answers (bounded), saying which check did not
  redis.pause();
  try {
    assert.deepEqual(await ready(), {
      status: 200,
      body: { ready: true, degraded: true, checks: { database: 'ok', redis: 'timeout', workers: 'ok' } },
    });
  } finally {
    redis.resume();
  }

  // stopped: degraded, and uploads are still taken (the row is the queue's record); the job waits with
  // no worker registered anywhere, which readiness says at once
  await redis.down();
  assert.deepEqual(await ready(), {
    status: 200,
    body: { ready: true, degraded: true, checks: { database: 'ok', redis: 'down', workers: 'ok' } },
  });
  const user = await approvedUser(app);
  const clip = evalClip();
  const res = await upload(app, user.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: clip.text },
    { name: 'audio', filename: 'a.wav', content: readFileSync(clip.wav) },
  ]);
  assert.equal(res.statusCode, 202, res.body);
  assert.deepEqual((await ready()).body, {
    ready: true,
    degraded: true,
    checks: { database: 'ok', redis: 'down', workers: 'no_live_workers' },
  });
  await redis.restart();
  await until('readiness to see Redis back', async () => (await ready()).body.checks.redis === 'ok');
  assert.deepEqual((await ready()).body, {
    ready: true,
    degraded: true,
    checks: { database: 'ok', redis: 'ok', workers: 'no_live_workers' },
  });

  // a worker's heartbeat row, as a worker process writes it every 2 s: someone will take the job
  const db = app.deps.db;
  const now = new Date().toISOString();
  await db
    .insertInto('workers')
    .values({
      id: 'host:1:live',
      hostname: 'host',
      pid: 1,
      transport: 'bullmq',
      concurrency: 1,
      running: 0,
      completed: 0,
      failed: 0,
      stopping: 0,
      lease_ms: 600_000,
      started_at: now,
      heartbeat_at: now,
    })
    .execute();
  assert.deepEqual(await ready(), {
    status: 200,
    body: { ready: true, degraded: false, checks: { database: 'ok', redis: 'ok', workers: 'ok' } },
  });

  // the upload has waited for two minutes and nothing runs: the live worker is not taking jobs
  await db
    .updateTable('jobs')
    .set({ created_at: new Date(Date.now() - 120_000).toISOString() })
    .execute();
  assert.deepEqual(await ready(), {
    status: 200,
    body: {
      ready: true,
      degraded: true,
      checks: { database: 'ok', redis: 'ok', workers: 'no_live_workers' },
    },
  });
  // its heartbeat stops: dead once its row's own lease is over
  await db
    .updateTable('workers')
    .set({ heartbeat_at: new Date(Date.now() - 700_000).toISOString() })
    .execute();
  assert.equal((await ready()).body.checks.workers, 'no_live_workers');
});
