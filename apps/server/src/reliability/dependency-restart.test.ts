// The scaled-out shape (PostgreSQL, Redis, two API processes, two workers as separate processes) while
// its dependencies restart under it: PostgreSQL stopped and started again on the same port with event
// streams open and jobs running, then Redis the same way. Every process survives (none exits), requests
// meanwhile answer 503 with Retry-After instead of 500, an API started while PostgreSQL is away waits
// for it instead of exiting, and every job accepted before, during and after the outages completes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { API_LISTENING, startChild } from '@tazamun/server/testing/child-process';
import type { TestChild } from '@tazamun/server/testing/child-process';
import { startPostgres } from '@tazamun/server/testing/postgres-server';
import { startRedis } from '@tazamun/server/testing/redis-server';
import { GOOD_PASSWORD } from '@tazamun/server/testing/test-app';
import { longClip, tempDir } from '@tazamun/server/testing/jobs-test-app';
import { until } from '@tazamun/server/testing/until';

/** A probe that throws while a dependency is down counts as "not yet". */
const untilUp = <T>(what: string, probe: () => Promise<T | null>): Promise<T> =>
  until(what, () => probe().catch(() => null));

// Hang guards only: on the shared 2-core machine several children compiling at once under tsx have
// taken minutes to print their first line.
const START_MS = 600_000;

/** An event stream read to its end in the background; `text()` is what arrived so far. */
function openStream(url: string, headers: Record<string, string>) {
  let text = '';
  const done = fetch(url, { headers }).then(async (res) => {
    assert.equal(res.status, 200);
    const decoder = new TextDecoder();
    for await (const chunk of res.body!) text += decoder.decode(chunk as Uint8Array, { stream: true });
    return text;
  });
  return { done, text: () => text };
}

test(
  'every process survives a PostgreSQL restart and a Redis restart with streams open and jobs running',
  {
    timeout: 1_800_000,
  },
  async (t) => {
    const postgres = await startPostgres();
    t.after(() => postgres.stop());
    const redis = await startRedis();
    t.after(() => redis.stop());
    const dataDir = tempDir(t);
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      JWT_SECRET: 'dependency-restart-test-secret-long-enough-0123',
      AUTO_APPROVE: 'true',
      DEMO_MEDIA_DIR: '',
      LOG_LEVEL: 'info',
      JOB_LEASE: '2s',
      // a hang guard only: on the shared 2-core machine a 15 s clip has taken over 90 s to align
      JOB_TIMEOUT_BASE: '30m',
      WEB_DIST: join(dataDir, 'no-web'),
    };
    const apiEnv = { ...env, PORT: '0', HOST: '127.0.0.1', WORKER_CONCURRENCY: '0' };
    const api = async () => {
      const child = await startChild(t, 'server.ts', {
        env: apiEnv,
        ready: API_LISTENING,
        readyWithinMs: START_MS,
      });
      return { child, url: child.match[1]! };
    };
    const worker = () =>
      startChild(t, 'worker.ts', {
        env: { ...env, WORKER_CONCURRENCY: '1' },
        ready: /"queue":"bullmq","msg":"worker started"/,
        readyWithinMs: START_MS,
      });
    const a1 = await api();
    t.diagnostic('first API up');
    const [a2, w1, w2] = await Promise.all([api(), worker(), worker()]);
    const children: TestChild[] = [a1.child, a2.child, w1, w2];
    t.diagnostic('two APIs and two workers up');
    const alive = () => {
      for (const c of children)
        assert.equal(c.process.exitCode ?? c.process.signalCode, null, `${c.name} ${c.pid} is still running`);
    };

    const reg = await fetch(`${a1.url}/api/auth/register/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        first_name: 'Samir',
        last_name: 'Haddad',
        email: 'samir@example.org',
        password: GOOD_PASSWORD,
        password_confirm: GOOD_PASSWORD,
      }),
    });
    assert.equal(reg.status, 201);
    const auth = {
      authorization: `Bearer ${((await reg.json()) as { tokens: { access: string } }).tokens.access}`,
    };
    const long = longClip(tempDir(t));
    const send = async (url: string): Promise<string> => {
      const form = new FormData();
      form.set('language', 'eng');
      form.set('text', long.text);
      form.set('audio', new Blob([readFileSync(long.wav)]), 'a.wav');
      const res = await fetch(`${url}/api/alignments/`, { method: 'POST', headers: auth, body: form });
      assert.equal(res.status, 202, await res.clone().text());
      return ((await res.json()) as { id: string }).id;
    };
    const reader = new pg.Client({ connectionString: postgres.url });
    reader.on('error', () => undefined);
    await reader.connect();
    t.after(() => reader.end().catch(() => undefined));
    const jobStatus = async (alignment: string) =>
      (await reader.query<{ status: string }>('select status from jobs where alignment_id = $1', [alignment]))
        .rows[0]?.status ?? null;
    // on a hang, what the rows and the workers said
    const diagnose = async (): Promise<string> => {
      const c = new pg.Client({ connectionString: postgres.url });
      await c.connect();
      const rows = await c
        .query('select id, alignment_id, status, attempts, worker_id, lease_until, last_error from jobs')
        .finally(() => c.end());
      const tails = children.map((ch) => `--- ${ch.name} ${ch.pid}\n${ch.output().slice(-2500)}`);
      return `${JSON.stringify(rows.rows, null, 1)}\n${tails.join('\n')}`;
    };
    const completed = async (url: string, id: string) => {
      try {
        await untilUp(`${id} completed`, async () => {
          const res = await fetch(`${url}/api/alignments/${id}/progress/`, { headers: auth });
          return ((await res.json()) as { status: string }).status === 'completed' ? true : null;
        });
      } catch (err) {
        throw new Error(`${(err as Error).message}\n${await diagnose()}`);
      }
    };
    const bothRunning = (ids: string[]) =>
      untilUp('both jobs running', async () => {
        for (const id of ids) if ((await jobStatus(id)) !== 'processing') return null;
        return true;
      });

    // --- PostgreSQL restarts while two jobs run and each API streams the other one's progress ---
    const first = [await send(a1.url), await send(a2.url)];
    const streams = [
      openStream(`${a2.url}/api/alignments/${first[0]}/events/`, auth),
      openStream(`${a1.url}/api/alignments/${first[1]}/events/`, auth),
    ];
    await bothRunning(first);
    await untilUp('both streams opened', async () =>
      streams.every((s) => s.text().includes('event: progress')) ? true : null,
    );
    await reader.end();
    await postgres.down();
    t.diagnostic('PostgreSQL down');

    // while it is away: 503 with Retry-After, never 500, on an authenticated route and on readiness
    for (const { url } of [a1, a2]) {
      const quota = await fetch(`${url}/api/auth/quota/`, { headers: auth });
      assert.equal(quota.status, 503);
      assert.equal(quota.headers.get('retry-after'), '5');
      assert.equal(((await quota.json()) as { code: string }).code, 'service_unavailable');
      const ready = await fetch(`${url}/api/ready/`);
      assert.equal(ready.status, 503);
      assert.equal(ready.headers.get('retry-after'), '5');
    }
    // an API started now waits for the database instead of exiting
    const late = await startChild(t, 'server.ts', {
      env: apiEnv,
      ready: /"msg":"database unavailable; waiting for it"/,
      readyWithinMs: START_MS,
    });
    children.push(late);
    // the workers' progress writes and lease renewals fail meanwhile; let a few of them fail
    await new Promise((r) => setTimeout(r, 4000));
    alive();
    await postgres.restart();
    t.diagnostic('PostgreSQL back');

    const lateUrl = await untilUp('the late API listening', async () => {
      const m = API_LISTENING.exec(late.output());
      return m ? m[1]! : null;
    });
    for (const id of first) await completed(a1.url, id);
    for (const s of streams) assert.match(await s.done, /event: end\ndata: .*"status":"completed"/);
    assert.equal((await fetch(`${lateUrl}/api/ready/`)).status, 200);
    alive();

    // --- Redis restarts while two jobs run; an upload during the outage is accepted and runs later ---
    const second = [await send(a1.url), await send(lateUrl)];
    const streams2 = [
      openStream(`${a2.url}/api/alignments/${second[0]}/events/`, auth),
      openStream(`${lateUrl}/api/alignments/${second[1]}/events/`, auth),
    ];
    const reader2 = new pg.Client({ connectionString: postgres.url });
    reader2.on('error', () => undefined);
    await reader2.connect();
    t.after(() => reader2.end().catch(() => undefined));
    const jobStatus2 = async (alignment: string) =>
      (
        await reader2.query<{ status: string }>('select status from jobs where alignment_id = $1', [
          alignment,
        ])
      ).rows[0]?.status ?? null;
    await untilUp('both jobs running', async () => {
      for (const id of second) if ((await jobStatus2(id)) !== 'processing') return null;
      return true;
    });
    await redis.down();
    t.diagnostic('Redis down');
    const during = await send(a2.url);
    await new Promise((r) => setTimeout(r, 4000));
    alive();
    await redis.restart();
    t.diagnostic('Redis back');
    for (const id of [...second, during]) await completed(a2.url, id);
    for (const s of streams2) assert.match(await s.done, /event: end\ndata: .*"status":"completed"/);

    // the quota was charged once per upload, and every process is still the one started
    const quota = (await (await fetch(`${a1.url}/api/auth/quota/`, { headers: auth })).json()) as {
      quota: { used_today: number };
    };
    assert.equal(quota.quota.used_today, 5);
    const finished = await reader2.query<{ status: string; n: string }>(
      'select status, count(*) as n from jobs group by status',
    );
    assert.deepEqual(
      finished.rows.map((r) => [r.status, Number(r.n)]),
      [['completed', 5]],
    );
    alive();
  },
);
