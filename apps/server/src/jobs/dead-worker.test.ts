// A worker killed outright is shown dead at once, not after its jobs' lease (issue 29, items 6 and 7).
// A real worker process (worker.ts) runs a long job on the shared SQLite file with a ten-minute
// JOB_LEASE, and is killed with SIGKILL. Within a few heartbeats (2 s each) the workers registry shows it
// dead with nothing running, `npm run admin -- workers` says so, and the API's /metrics counts no live
// worker and the job as stalled, not running, while the job's own lease still has minutes to go (its
// recovery waits for that lease, as before: only the view of the worker changed).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SERVER_SRC, startChild } from '@tazamun/server/testing/child-process';
import { approvedUser, bearer, makeAdmin } from '@tazamun/server/testing/test-app';
import { createJobsTestApp, longClip, tempDir, upload } from '@tazamun/server/testing/jobs-test-app';
import { until } from '@tazamun/server/testing/until';

const TOKEN = 'dead-worker-scrape-token-0123456';
const run = promisify(execFile);

function series(body: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of body.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return null;
}

test('a worker killed with SIGKILL is shown dead within seconds, its job stalled', async (t) => {
  // the API process: enqueues only
  const { app, dir, config } = await createJobsTestApp(t, { concurrency: 0 }, { metricsToken: TOKEN });
  if (config.database.kind !== 'sqlite') return t.skip('the shared SQLite file is what this test shares');
  const worker = await startChild(t, 'worker.ts', {
    env: {
      DATA_DIR: dir,
      DATABASE_URL: config.database.file,
      JWT_SECRET: config.jwtSecret!,
      WORKER_CONCURRENCY: '1',
      JOB_LEASE: '10m',
      DEMO_MEDIA_DIR: '',
      REDIS_URL: '',
    },
    ready: /"msg":"worker started"/,
    readyWithinMs: 600_000,
  });
  const admin = await approvedUser(app);
  await makeAdmin(app, admin.id);
  const workers = async () => {
    const res = await app.inject({ url: '/api/admin/workers/', headers: bearer(admin.access) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { live: number; workers: { pid: number; live: boolean; running: number }[] };
  };
  const scrape = async () =>
    (await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;

  const user = await approvedUser(app);
  const long = longClip(tempDir(t));
  const res = await upload(app, user.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: long.text },
    { name: 'audio', filename: 'long.wav', content: readFileSync(long.wav) },
  ]);
  assert.equal(res.statusCode, 202, res.body);
  const id = res.json().id as string;
  await until('the worker running the job', async () => (await workers()).workers[0]?.running === 1);
  const running = await scrape();
  assert.equal(series(running, 'tazamun_workers_live'), 1);
  assert.equal(series(running, 'tazamun_workers_busy'), 1);
  assert.equal(series(running, 'tazamun_queue_jobs', { kind: 'align', state: 'running' }), 1);

  worker.kill('SIGKILL');
  await worker.exited();
  await until('the worker shown dead', async () => (await workers()).live === 0);
  const list = await workers();
  assert.deepEqual(
    list.workers.map((w) => ({ pid: w.pid, live: w.live, running: w.running })),
    [{ pid: worker.pid, live: false, running: 0 }],
  );
  const dead = await scrape();
  assert.equal(series(dead, 'tazamun_workers_live'), 0);
  assert.equal(series(dead, 'tazamun_workers_busy'), 0);
  assert.equal(series(dead, 'tazamun_queue_jobs', { kind: 'align', state: 'running' }), 0);
  assert.equal(series(dead, 'tazamun_queue_jobs', { kind: 'align', state: 'stalled' }), 1);
  // the job's lease, renewed for ten minutes, is still current: the registry did not wait for it
  const job = await app.deps.db
    .selectFrom('jobs')
    .select(['status', 'lease_until'])
    .where('alignment_id', '=', id)
    .executeTakeFirstOrThrow();
  assert.equal(job.status, 'processing');
  assert.ok(Date.parse(job.lease_until!) > Date.now() + 60_000, `lease until ${job.lease_until}`);

  // the operator's view: `npm run admin -- workers`
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', join(SERVER_SRC, 'cli/admin.ts'), 'workers'],
    { env: { ...process.env, DATA_DIR: dir, DATABASE_URL: config.database.file, LOG_LEVEL: 'silent' } },
  );
  const [summary, header, row] = stdout.trim().split('\n');
  assert.equal(summary, '0 live of 1');
  assert.equal(header, 'id\tstate\ttransport\trunning\tcompleted\tfailed\tstarted\theartbeat');
  const cells = row!.split('\t');
  assert.deepEqual([cells[1], cells[2], cells[3]], ['dead', 'database', '0/1']);
  assert.match(cells[0]!, new RegExp(`:${worker.pid}:`));
});
