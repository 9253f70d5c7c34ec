// A separate `npm run worker` process serves its own /metrics on METRICS_PORT: an API (in this test
// process, enqueuing only) takes an upload on the shared SQLite file, the worker runs it, and the
// worker's scrape counts the completed run; the token is required as on the API.
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startChild } from '@tazamun/server/testing/child-process';
import { freePort } from '@tazamun/server/testing/postgres-server';
import { approvedUser } from '@tazamun/server/testing/test-app';
import { createJobsTestApp, evalClip, upload, waitForStatus } from '@tazamun/server/testing/jobs-test-app';

const TOKEN = 'worker-scrape-token-0123456789';

test('a worker process serves its job metrics on METRICS_PORT behind METRICS_TOKEN', async (t) => {
  const { app, dir, config } = await createJobsTestApp(t, { concurrency: 0 });
  if (config.database.kind !== 'sqlite') return t.skip('the shared SQLite file is what this test shares');
  const port = await freePort();
  await startChild(t, 'worker.ts', {
    env: {
      DATA_DIR: dir,
      DATABASE_URL: config.database.file,
      JWT_SECRET: config.jwtSecret!,
      WORKER_CONCURRENCY: '1',
      HOST: '127.0.0.1',
      METRICS_PORT: String(port),
      METRICS_TOKEN: TOKEN,
      DEMO_MEDIA_DIR: '',
      REDIS_URL: '',
    },
    // its metrics port listens on its own (at once, or after a retry if the port was taken meanwhile)
    ready: /^(?=[\s\S]*"msg":"metrics served")[\s\S]*"msg":"worker started"/,
    readyWithinMs: 600_000,
  });
  const url = `http://127.0.0.1:${port}/metrics`;
  assert.equal((await fetch(url)).status, 401);
  assert.equal(
    (await fetch(url, { headers: { authorization: 'Bearer wrong-token-0123456789abcd' } })).status,
    401,
  );
  const scrape = async () => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.status, 200);
    return res.text();
  };
  assert.match(await scrape(), /# TYPE tazamun_job_runs_total counter/);

  const user = await approvedUser(app);
  const clip = evalClip();
  const res = await upload(app, user.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: clip.text },
    { name: 'audio', filename: 'a.wav', content: readFileSync(clip.wav) },
  ]);
  assert.equal(res.statusCode, 202, res.body);
  assert.equal((await waitForStatus(app, user.access, res.json().id)).status, 'completed');
  const body = await scrape();
  const completed = body
    .split('\n')
    .filter((l) => l.startsWith('tazamun_job_runs_total{') && l.includes('outcome="completed"'));
  assert.equal(completed.length, 1, body);
  assert.match(completed[0]!, /role="worker"/);
  assert.match(completed[0]!, /language="eng"/);
  assert.match(completed[0]!, / 1$/);
});
