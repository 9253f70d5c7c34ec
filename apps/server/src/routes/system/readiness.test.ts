// GET /api/ready/ as a load balancer uses it, against a real Redis: a frozen Redis (SIGSTOP: it keeps
// the connection and answers nothing) and a stopped one make the answer "degraded" (200, the instance
// still takes uploads), never a hang or a 503; jobs waiting with no worker to take them are degraded
// too; an upload is accepted while Redis is away. The database-down 503 is covered by
// reliability/dependency-restart.test.ts, which stops a real PostgreSQL.
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
    return { status: res.statusCode, body: res.json() as Record<string, unknown> };
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

  // stopped: degraded, and uploads are still taken (the row is the queue's record)
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
  await redis.restart();
  await until('readiness to see Redis back', async () => (await ready()).body.degraded !== true);
  assert.deepEqual((await ready()).body, {
    ready: true,
    degraded: false,
    checks: { database: 'ok', redis: 'ok', workers: 'ok' },
  });

  // the upload has waited for two minutes and no worker took it: no live worker
  await app.deps.db
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
});
