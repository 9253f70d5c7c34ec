// The scaled-out shape as separate processes on loopback: Redis (BullMQ hands out the jobs, pub/sub
// carries progress), two API processes (server.ts, no workers) and two workers (worker.ts) sharing one
// DATA_DIR and one database (a SQLite file on the SQLite run, a PostgreSQL cluster on the PostgreSQL
// run). Jobs accepted by either API spread over both workers, progress reaches the event stream of the
// other API process, a worker stopped with SIGTERM hands its job back (finished elsewhere, attempt not
// counted), and a worker killed mid-job (SIGKILL) has its job finished by the survivor exactly once
// with the quota used once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import pg from 'pg';
import { API_SERVING, startChild } from '@tazamun/server/testing/child-process';
import { startPostgres } from '@tazamun/server/testing/postgres-server';
import { startRedis } from '@tazamun/server/testing/redis-server';
import { GOOD_PASSWORD, TEST_DB } from '@tazamun/server/testing/test-app';
import { evalClip, longClip, tempDir } from '@tazamun/server/testing/jobs-test-app';
import { until } from '@tazamun/server/testing/until';

/** Reads the shared database from the test: `?` placeholders on both engines. */
interface Reader {
  rows<T>(query: string, params: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

async function sharedDatabase(
  t: TestContext,
  dataDir: string,
): Promise<{ env: Record<string, string>; open: () => Promise<Reader> }> {
  if (TEST_DB === 'postgres') {
    const server = await startPostgres();
    t.after(() => server.stop());
    return {
      env: { DATABASE_URL: server.url },
      open: async () => {
        const c = new pg.Client({ connectionString: server.url });
        // t.after hooks run in order, so the cluster may stop before this client ends
        c.on('error', () => undefined);
        await c.connect();
        return {
          rows: async <T>(q: string, params: unknown[]) => {
            let i = 0;
            return (
              await c.query(
                q.replace(/\?/g, () => `$${++i}`),
                params,
              )
            ).rows as T[];
          },
          close: () => c.end(),
        };
      },
    };
  }
  // one SQLite file in DATA_DIR for every process (WAL, busy timeout: see db/database.ts)
  return {
    env: { DATABASE_URL: '' },
    open: async () => {
      const db = new Database(join(dataDir, 'tazamun.sqlite'), { fileMustExist: true });
      db.pragma('busy_timeout = 5000');
      return {
        rows: async <T>(q: string, params: unknown[]) => db.prepare(q).all(...params) as T[],
        close: async () => void db.close(),
      };
    },
  };
}

test(`two API processes and two BullMQ workers on ${TEST_DB} and Redis`, { timeout: 480_000 }, async (t) => {
  const redis = await startRedis();
  t.after(() => redis.stop());
  const dataDir = tempDir(t);
  const database = await sharedDatabase(t, dataDir);
  const env = {
    DATA_DIR: dataDir,
    ...database.env,
    REDIS_URL: redis.url,
    JWT_SECRET: 'scaled-shape-test-secret-that-is-long-enough-0123',
    AUTO_APPROVE: 'true',
    DEMO_MEDIA_DIR: '',
    LOG_LEVEL: 'info',
    JOB_LEASE: '1500ms',
    WEB_DIST: join(dataDir, 'no-web'),
  };
  const api = async () =>
    (
      await startChild(t, 'server.ts', {
        env: { ...env, PORT: '0', HOST: '127.0.0.1', WORKER_CONCURRENCY: '0' },
        ready: API_SERVING,
      })
    ).match[1]!;
  const worker = () =>
    startChild(t, 'worker.ts', {
      env: { ...env, WORKER_CONCURRENCY: '1' },
      ready: /"queue":"bullmq","msg":"worker started"/,
    });
  // the first process migrates; the others start together and find nothing to do
  const api1 = await api();
  const [api2, w1, w2] = await Promise.all([api(), worker(), worker()]);
  for (const url of [api1, api2]) assert.equal((await fetch(`${url}/api/ready/`)).status, 200);

  const reg = await fetch(`${api1}/api/auth/register/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      first_name: 'Lina',
      last_name: 'Farah',
      email: 'lina@example.org',
      password: GOOD_PASSWORD,
      password_confirm: GOOD_PASSWORD,
    }),
  });
  assert.equal(reg.status, 201);
  const auth = {
    authorization: `Bearer ${((await reg.json()) as { tokens: { access: string } }).tokens.access}`,
  };
  const send = async (url: string, c: { wav: string; text: string }): Promise<string> => {
    const form = new FormData();
    form.set('language', 'eng');
    form.set('text', c.text);
    form.set('audio', new Blob([readFileSync(c.wav)]), 'a.wav');
    const res = await fetch(`${url}/api/alignments/`, { method: 'POST', headers: auth, body: form });
    assert.equal(res.status, 202, await res.clone().text());
    return ((await res.json()) as { id: string }).id;
  };
  const status = async (url: string, id: string) =>
    (await (await fetch(`${url}/api/alignments/${id}/progress/`, { headers: auth })).json()) as {
      status: string;
      step: string | null;
    };
  const used = async (url: string) =>
    (
      (await (await fetch(`${url}/api/auth/quota/`, { headers: auth })).json()) as {
        quota: { used_today: number };
      }
    ).quota.used_today;
  const db = await database.open();
  t.after(() => db.close());
  const jobOf = async (alignment: string) =>
    (
      await db.rows<{ status: string; worker_id: string | null; attempts: number }>(
        'select status, worker_id, attempts from jobs where alignment_id = ?',
        [alignment],
      )
    )[0];
  const pidOf = (workerId: string | null | undefined) => workerId?.split(':')[1] ?? null;
  // the handler completes the alignment, then the queue its job row: wait for both
  const completed = (url: string, id: string) =>
    until(`job ${id} completed`, async () =>
      (await status(url, id)).status === 'completed' && (await jobOf(id))?.status === 'completed'
        ? true
        : null,
    );

  // four jobs, accepted by both API processes
  const clip = evalClip();
  const ids = [
    await send(api1, clip),
    await send(api2, clip),
    await send(api1, clip),
    await send(api2, clip),
  ];
  // each job's progress followed through the event stream of the API process that did not accept it
  const streams = await Promise.all([
    fetch(`${api2}/api/alignments/${ids[0]}/events/`, { headers: auth }).then((r) => r.text()),
    fetch(`${api1}/api/alignments/${ids[1]}/events/`, { headers: auth }).then((r) => r.text()),
  ]);
  for (const stream of streams) assert.match(stream, /event: end\ndata: .*"status":"completed"/);
  for (const id of ids) await completed(api1, id);
  const ran = await db.rows<{ worker_id: string; attempts: number }>(
    'select worker_id, attempts from jobs where status = ?',
    ['completed'],
  );
  assert.equal(ran.length, 4);
  assert.ok(
    ran.every((r) => Number(r.attempts) === 1),
    'each job ran once',
  );
  const perWorker = new Map<string | null, number>();
  for (const r of ran) perWorker.set(pidOf(r.worker_id), (perWorker.get(pidOf(r.worker_id)) ?? 0) + 1);
  t.diagnostic(`jobs per worker: ${[...perWorker.values()].sort().join(' + ')}`);
  assert.deepEqual(
    [...new Set(ran.map((r) => pidOf(r.worker_id)))].sort(),
    [String(w1.pid), String(w2.pid)].sort(),
    `jobs ran on both workers: ${ran.map((r) => r.worker_id).join(', ')}`,
  );
  assert.equal(await used(api2), 4);

  const long = longClip(tempDir(t));
  const runningOn = (alignment: string) =>
    until(`${alignment} is running`, async () => {
      const row = await jobOf(alignment);
      return row?.status === 'processing' ? pidOf(row.worker_id) : null;
    });

  // SIGTERM: the worker hands its running job back and exits; the other one runs it, the attempt
  // given back
  const handed = await send(api1, long);
  const holder1 = await runningOn(handed);
  const [leaving, staying] = String(w1.pid) === holder1 ? [w1, w2] : [w2, w1];
  leaving.kill('SIGTERM');
  assert.equal((await leaving.exited()).code, 0, 'the worker shut down cleanly');
  await completed(api2, handed);
  const handedRow = await jobOf(handed);
  assert.equal(pidOf(handedRow!.worker_id), String(staying.pid));
  assert.equal(Number(handedRow!.attempts), 1, 'a shutdown does not use up an attempt');

  // SIGKILL: a worker dies mid-job; BullMQ's stalled check gives the job to the other worker once
  // the lease ran out, which completes it, once
  const w3 = await worker();
  const killedJob = await send(api2, long);
  const holder2 = await runningOn(killedJob);
  const [victim, survivor] = String(staying.pid) === holder2 ? [staying, w3] : [w3, staying];
  victim.kill('SIGKILL');
  await completed(api1, killedJob);
  const final = await jobOf(killedJob);
  assert.equal(final!.status, 'completed');
  assert.equal(pidOf(final!.worker_id), String(survivor.pid));
  assert.equal(Number(final!.attempts), 2, 'the killed run and the one that completed');
  const detail = (await (await fetch(`${api2}/api/alignments/${killedJob}/`, { headers: auth })).json()) as {
    status: string;
    result: { words: unknown[] };
  };
  assert.equal(detail.status, 'completed');
  assert.equal(detail.result.words.length, long.text.split(/\s+/).length);
  assert.equal(await used(api1), 6, 'six uploads, six units: none used twice, none lost');
  const [count] = await db.rows<{ n: number | string }>('select count(*) as n from jobs', []);
  assert.equal(Number(count!.n), 6, 'one job row per upload');
});
