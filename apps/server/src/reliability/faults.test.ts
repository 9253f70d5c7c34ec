// Faults from outside the process: the database drops every connection mid-run, the disk that holds
// uploads fills up, and Redis (BullMQ and pub/sub) goes away for 10 s while a job runs and an upload
// comes in. Requests must recover or fail cleanly, nothing half-stored may remain, no upload is lost
// and no job runs twice.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { Queue } from 'bullmq';
import { errorMessage } from '@tazamun/contracts/errors';
import { ErrorBody } from '@tazamun/contracts/error-body';
import { buildApp } from '../app.ts';
import { ManualClock } from '../clock.ts';
import { startPostgres } from '@tazamun/server/testing/postgres-server';
import { startRedis } from '@tazamun/server/testing/redis-server';
import { approvedUser, bearer, testConfig, testDatabase } from '@tazamun/server/testing/test-app';
import {
  evalClip,
  longClip,
  multipart,
  tempDir,
  upload,
  waitForStatus,
} from '@tazamun/server/testing/jobs-test-app';
import { jobRowsFinal } from '@tazamun/server/testing/job-rows';
import { BULL_QUEUE_NAME } from '../jobs/bull-job-queue.ts';
import { pcmWav } from '@tazamun/server/testing/wav';
import { loadConfig } from '../config.ts';
import { until } from '@tazamun/server/testing/until';

function wav(seconds: number): Buffer {
  return pcmWav(seconds, (i) => 5000 * Math.sin(i / 7));
}

const noWorkers = () => ({ ...loadConfig({}).jobs, concurrency: 0, demoMediaDir: null, seedDemos: false });

test('PostgreSQL terminates every backend mid-run: requests recover without a restart', async (t) => {
  const server = await startPostgres();
  t.after(() => server.stop());
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-fault-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const config = testConfig(dir, { database: { kind: 'postgres', url: server.url } });
  const app = await buildApp(config, { clock: new ManualClock(), logger: false, jobs: noWorkers() });
  t.after(() => app.close());
  const u = await approvedUser(app);
  const profile = () => app.inject({ url: '/api/auth/profile/', headers: bearer(u.access) });
  // warm the pool: several connections open and idle
  await Promise.all(Array.from({ length: 8 }, profile));

  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  const killed = await admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where pid <> pg_backend_pid() and datname = current_database()',
  );
  await admin.end();
  assert.ok(killed.rowCount! >= 1, 'the app held at least one connection');

  const statuses: number[] = [];
  for (let i = 0; i < 30; i++) {
    const res = await profile();
    statuses.push(res.statusCode);
    // a request that lands on a dead connection fails in the contract's shape, never hangs
    if (res.statusCode >= 500) ErrorBody.parse(res.json());
    else assert.equal(res.statusCode, 200, res.body);
  }
  assert.ok(
    statuses.slice(-20).every((s) => s === 200),
    `requests after the first few all succeed: ${statuses.join(',')}`,
  );
  const ready = await app.inject({ url: '/api/ready/' });
  assert.equal(ready.statusCode, 200);
});

test('the upload disk fills up: a clean error, no quota used, nothing half-stored, and it recovers', async (t) => {
  if (process.getuid?.() !== 0)
    throw new Error('this test mounts a small tmpfs to fill a real disk and must run as root');
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-enospc-'));
  const data = join(dir, 'data');
  mkdirSync(data);
  // 3 MB of disk for DATA_DIR; the database lives outside it so only the files run out of room
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tazamun-enospc', data]);
  t.after(() => {
    execFileSync('umount', ['-l', data]);
    rmSync(dir, { recursive: true, force: true });
  });
  const config = testConfig(data, { database: testDatabase(dir) });
  const app = await buildApp(config, { clock: new ManualClock(), logger: false, jobs: noWorkers() });
  t.after(() => app.close());
  const u = await approvedUser(app);
  const send = (audio: Buffer) => {
    const { payload, headers } = multipart([
      { name: 'language', value: 'eng' },
      { name: 'text', value: 'hello world' },
      { name: 'audio', filename: 'a.wav', content: audio, contentType: 'audio/wav' },
    ]);
    return app.inject({
      method: 'POST',
      url: '/api/alignments/',
      payload,
      headers: { ...headers, ...bearer(u.access) },
    });
  };
  // files only: the upload may leave the user's (empty) folders, never bytes
  const files = () =>
    readdirSync(data, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name))
      .sort();
  const rows = async () =>
    Number(
      (
        await app.deps.db
          .selectFrom('alignments')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const quota = async () =>
    (
      await app.deps.db
        .selectFrom('users')
        .select('used_today')
        .where('id', '=', u.id)
        .executeTakeFirstOrThrow()
    ).used_today;

  const beforeFiles = files();
  const res = await send(wav(120)); // 3.8 MB of PCM: more than the disk holds
  // a full disk, said as such (507 insufficient_storage, with a request id), not a bare 500 (issue 29)
  assert.equal(res.statusCode, 507, res.body);
  const body = ErrorBody.parse(res.json());
  assert.equal(body.code, 'insufficient_storage');
  assert.ok(body.request_id);
  assert.equal(body.detail, errorMessage('insufficient_storage', 'en'));
  assert.ok(!/ENOSPC|no space/i.test(res.body), 'the internal error is not leaked');
  assert.equal(await rows(), 0);
  assert.equal(await quota(), 0, 'no quota used');
  assert.deepEqual(files(), beforeFiles, 'nothing half-stored');

  // room for a small file: the same process accepts it
  const ok = await send(wav(1));
  assert.equal(ok.statusCode, 202, ok.body);
  assert.equal(await rows(), 1);
  assert.equal(await quota(), 1);
});

for (const persist of [false, true])
  test(
    `Redis stops for 10 s while a BullMQ job runs and an upload comes in (${persist ? 'append-only file: BullMQ keeps its keys' : 'no persistence: BullMQ loses every key'}): nothing lost, nothing run twice`,
    { timeout: 300_000 },
    async (t) => {
      // one hook, last-in first-out: the app lets go of Redis before Redis stops
      const closers: (() => Promise<unknown> | void)[] = [];
      t.after(async () => {
        for (const c of closers.reverse()) await c();
      });
      const redis = await startRedis({ persist });
      closers.push(() => redis.stop());
      const dir = mkdtempSync(join(tmpdir(), 'tazamun-redis-fault-'));
      closers.push(() => rmSync(dir, { recursive: true, force: true }));
      const app = await buildApp(testConfig(dir), {
        clock: new ManualClock(new Date().toISOString()),
        logger: false,
        redisUrl: redis.url,
        jobs: { ...noWorkers(), concurrency: 1, leaseMs: 3000 },
      });
      await app.ready();
      closers.push(() => app.close());
      assert.equal(app.jobs.kind, 'bullmq');
      const u = await approvedUser(app);
      const send = async (c: { wav: string; text: string }) => {
        const res = await upload(app, u.access, [
          { name: 'language', value: 'eng' },
          { name: 'text', value: c.text },
          { name: 'audio', filename: 'a.wav', content: readFileSync(c.wav) },
        ]);
        assert.equal(res.statusCode, 202, res.body);
        return res.json().id as string;
      };

      const long = longClip(tempDir(t));
      const running = await send(long);
      await waitForStatus(app, u.access, running, ['processing']);
      await redis.down();
      const downAt = Date.now();
      // readiness says degraded (this instance still serves), the upload is still taken: its row is
      // the queue's record
      const degraded = await app.inject({ url: '/api/ready/' });
      assert.equal(degraded.statusCode, 200);
      assert.equal(degraded.json().degraded, true);
      assert.equal(degraded.json().checks.redis, 'down');
      const clip = evalClip();
      const during = await send(clip);
      await new Promise((r) => setTimeout(r, Math.max(0, 10_000 - (Date.now() - downAt))));
      // Back. Without persistence BullMQ lost every key and the rows say what is left to do; with it, the
      // running job's lock ran out meanwhile and BullMQ's stalled check hands it out again, while its
      // runner (which kept renewing the row's lease) may still be at work.
      await redis.restart();

      for (const id of [running, during])
        assert.equal((await waitForStatus(app, u.access, id)).status, 'completed', id);
      // the handler completes the alignment, then the queue its job row: wait for the rows too
      const jdb = app.deps.db;
      const ids = (await jdb.selectFrom('jobs').select('id').execute()).map((j) => j.id);
      assert.equal(ids.length, 2, 'one job row per upload');
      const jobs = await jobRowsFinal(jdb, ids);
      assert.deepEqual(
        jobs.map((j) => [j.status, j.attempts]),
        [
          ['completed', 1],
          ['completed', 1],
        ],
        'each job ran once',
      );
      const quota = (await app.inject({ url: '/api/auth/quota/', headers: bearer(u.access) })).json();
      assert.equal(quota.quota.used_today, 2, 'two uploads, two units');
      const detail = (
        await app.inject({ url: `/api/alignments/${during}/`, headers: bearer(u.access) })
      ).json();
      assert.equal(detail.result.words.length, clip.text.split(/\s+/).length);
      assert.equal((await app.inject({ url: '/api/ready/' })).statusCode, 200);
      // and BullMQ keeps nothing of them once they are final
      const bull = new Queue(BULL_QUEUE_NAME, { connection: { url: redis.url }, prefix: 'tazamun' });
      closers.push(() => bull.close());
      await until(
        'BullMQ to let go of the finished jobs',
        async () => !(await Promise.all(ids.map((id) => bull.getJob(id)))).some(Boolean),
      );
    },
  );
