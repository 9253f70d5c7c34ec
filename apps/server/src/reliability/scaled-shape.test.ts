// The scaled-out shape as separate processes on loopback: PostgreSQL, Redis, two API processes
// (server.ts, no workers) and two workers (worker.ts) sharing one DATA_DIR. Jobs accepted by either API
// spread over both workers, progress is seen through the other API process, and a worker killed
// mid-job (SIGKILL) has its job finished by the survivor once the lease runs out.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { startPostgres } from '../testing/postgres-server.ts';
import { startRedis } from '../testing/redis-server.ts';
import { GOOD_PASSWORD } from '../testing/test-app.ts';
import { evalClip, longClip, tempDir } from '../routes/alignments/test-support.ts';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');

function start(entry: string, env: Record<string, string>, ready: RegExp) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(SRC, entry)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const started = new Promise<{ child: ChildProcess; match: RegExpExecArray }>((resolve, reject) => {
    const onData = (c: Buffer): void => {
      out += c.toString();
      const m = ready.exec(out);
      if (m) resolve({ child, match: m });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${entry} exited (${code}):\n${out.slice(-3000)}`)));
  });
  return started;
}

async function until<T>(what: string, probe: () => Promise<T | null>, ms = 240_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('two API processes and two workers on PostgreSQL and Redis', { timeout: 480_000 }, async (t) => {
  const pgServer = await startPostgres();
  t.after(() => pgServer.stop());
  const redis = await startRedis();
  t.after(() => redis.stop());
  const dataDir = tempDir(t);
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: pgServer.url,
    REDIS_URL: redis.url,
    JWT_SECRET: 'scaled-shape-test-secret-that-is-long-enough-0123',
    AUTO_APPROVE: 'true',
    DEMO_MEDIA_DIR: '',
    LOG_LEVEL: 'info',
    JOB_LEASE: '1500ms',
    WEB_DIST: join(dataDir, 'no-web'),
  };
  const procs: ChildProcess[] = [];
  t.after(() => procs.forEach((p) => p.kill('SIGKILL')));
  const api = async () => {
    const s = await start(
      'server.ts',
      { ...env, PORT: '0', HOST: '127.0.0.1', WORKER_CONCURRENCY: '0' },
      /Server listening at (http:\/\/127\.0\.0\.1:\d+)/,
    );
    procs.push(s.child);
    return s.match[1]!;
  };
  const worker = async () => {
    const s = await start('worker.ts', { ...env, WORKER_CONCURRENCY: '1' }, /worker started/);
    procs.push(s.child);
    return s.child;
  };
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

  // four jobs, accepted by both API processes
  const clip = evalClip();
  const ids = [
    await send(api1, clip),
    await send(api2, clip),
    await send(api1, clip),
    await send(api2, clip),
  ];
  // progress of a job accepted by api1, followed through api2's event stream
  const stream = await (await fetch(`${api2}/api/alignments/${ids[0]}/events/`, { headers: auth })).text();
  assert.match(stream, /event: end\ndata: .*"status":"completed"/);
  for (const id of ids)
    await until(`job ${id} completed`, async () =>
      (await status(api1, id)).status === 'completed' ? true : null,
    );

  const db = new pg.Client({ connectionString: pgServer.url });
  // t.after hooks run in order, so the cluster stops before a hook here could end this client
  db.on('error', () => undefined);
  await db.connect();
  const workers = await db.query<{ worker_id: string }>(
    'select distinct worker_id from jobs where status = $1',
    ['completed'],
  );
  const pids = new Set(workers.rows.map((r) => r.worker_id.split(':')[1]));
  assert.deepEqual(
    [...pids].sort(),
    [String(w1.pid), String(w2.pid)].sort(),
    `jobs ran on both workers: ${workers.rows.map((r) => r.worker_id).join(', ')}`,
  );

  // a worker dies mid-job: the other one runs the job again after the lease and completes it
  const long = await send(api1, longClip(tempDir(t)));
  const holder = await until('the long job is running', async () => {
    const r = await db.query<{ worker_id: string | null; status: string }>(
      'select worker_id, status from jobs where alignment_id = $1',
      [long],
    );
    const row = r.rows[0];
    return row?.status === 'processing' && row.worker_id ? row.worker_id.split(':')[1]! : null;
  });
  const victim = [w1, w2].find((w) => String(w.pid) === holder)!;
  const survivor = [w1, w2].find((w) => w !== victim)!;
  victim.kill('SIGKILL');
  await until('the long job completed by the survivor', async () =>
    (await status(api2, long)).status === 'completed' ? true : null,
  );
  const final = await db.query<{ worker_id: string; attempts: number }>(
    'select worker_id, attempts from jobs where alignment_id = $1',
    [long],
  );
  assert.equal(final.rows[0]!.worker_id.split(':')[1], String(survivor.pid));
  assert.equal(final.rows[0]!.attempts, 2);
  await db.end();
});
