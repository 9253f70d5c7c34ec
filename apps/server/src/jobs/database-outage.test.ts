// A PostgreSQL outage costs a job nothing (issue 29, items 1 and 8), on the database-poll transport:
// two processes' runners (two apps on one real PostgreSQL cluster, as an API and a worker would be)
// share the queue; the cluster stops while a job runs and stays away until that job's work is done and
// its lease has run out. The runner keeps the result in memory and records it once PostgreSQL is back;
// the other runner does not take the expired lease over (the database has not been back for a whole
// lease), so the job completes at its first attempt, was started once, and each process logged the
// outage in two lines (gone, back with its duration) and no error-level line. The BullMQ transport's
// turn is in reliability/dependency-restart.test.ts (separate processes).
import { Writable } from 'node:stream';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { ManualClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { startPostgres } from '@tazamun/server/testing/postgres-server';
import { TEST_DB, approvedUser, testConfig } from '@tazamun/server/testing/test-app';
import { longClip, tempDir, upload, waitForStatus } from '@tazamun/server/testing/jobs-test-app';
import { until } from '@tazamun/server/testing/until';

interface Line {
  level: number;
  msg: string;
  app: string;
  [key: string]: unknown;
}

function sink(name: string, lines: Line[]): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean))
        lines.push({ ...(JSON.parse(l) as Line), app: name });
      done();
    },
  });
}

test(
  'PostgreSQL away while a job finishes: its result waits and is recorded, attempt 1, no takeover',
  { timeout: 900_000 },
  async (t) => {
    // it brings its own cluster: once is enough, in the PostgreSQL pass
    if (TEST_DB !== 'postgres') return t.skip('runs in the PostgreSQL pass');
    const pg = await startPostgres();
    t.after(() => pg.stop());
    const dir = tempDir(t);
    const lines: Line[] = [];
    const LEASE_MS = 2000;
    const apps: FastifyInstance[] = [];
    for (const name of ['a', 'b']) {
      const app = await buildApp(testConfig(dir, { database: { kind: 'postgres', url: pg.url } }), {
        clock: new ManualClock(new Date().toISOString()),
        logger: { level: 'info', stream: sink(name, lines) },
        jobs: {
          ...loadConfig({}).jobs,
          concurrency: 1,
          leaseMs: LEASE_MS,
          heartbeatMs: 500,
          pollMs: 200,
          demoMediaDir: null,
          seedDemos: false,
        },
      });
      await app.ready();
      apps.push(app);
    }
    t.after(async () => {
      for (const app of apps) await app.close();
    });
    const [a] = apps as [FastifyInstance, FastifyInstance];

    const user = await approvedUser(a);
    // about 45 s of speech: the engine is still at work when the cluster stops
    const long = longClip(tempDir(t), 3);
    const res = await upload(a, user.access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: long.text },
      { name: 'audio', filename: 'long.wav', content: readFileSync(long.wav) },
    ]);
    assert.equal(res.statusCode, 202, res.body);
    const id = res.json().id as string;
    const jobRow = () =>
      a.deps.db
        .selectFrom('jobs')
        .select(['status', 'attempts', 'failures', 'worker_id', 'last_error'])
        .where('alignment_id', '=', id)
        .executeTakeFirstOrThrow();
    // in the engine's hands (its reads of the database are over: an outage before that hands the
    // job back to the queue, attempt given back, and it starts again)
    await until('the engine aligning', async () => {
      const row = await a.deps.db
        .selectFrom('alignments')
        .select('step')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return row.step === 'analysis' || row.step === 'alignment';
    });
    const mark = lines.length;
    const outageAt = Date.now();
    await pg.down();
    t.diagnostic('PostgreSQL down');
    // the engine does not need the database: its work ends during the outage
    await until('a runner holding a finished result', () =>
      lines.some((l) => l.msg === 'job work done: its result waits for the database or the disk'),
    );
    // and the lease written before the outage has certainly run out
    await until('the lease over', () => Date.now() > outageAt + LEASE_MS + 1000);
    await pg.restart();
    t.diagnostic('PostgreSQL back');

    const end = await waitForStatus(a, user.access, id);
    // each process's watch notices the return at its next probe (every second)
    await until('both processes saw PostgreSQL back', () =>
      ['a', 'b'].every((name) =>
        lines.some((l) => l.app === name && l.msg === 'dependency back' && l.dependency === 'database'),
      ),
    );
    assert.equal(end.status, 'completed', JSON.stringify(end));
    const job = await jobRow();
    assert.deepEqual(
      {
        status: job.status,
        attempts: Number(job.attempts),
        failures: Number(job.failures),
        error: job.last_error,
      },
      { status: 'completed', attempts: 1, failures: 0, error: null },
    );
    const of = (msg: string) => lines.filter((l) => l.msg === msg);
    assert.equal(
      of('job started').filter((l) => l.alignment === id).length,
      1,
      'the job ran once: nothing was recomputed',
    );
    assert.equal(of('job result recorded after waiting').length, 1);
    assert.equal(of('job lease expired: queued again').length, 0, 'no takeover of the waiting job');

    // each process: one line when PostgreSQL went, one when it came back with the time it was away,
    // and nothing at error level meanwhile (heartbeats, polls and claims fail quietly)
    const during = lines.slice(mark);
    for (const name of ['a', 'b']) {
      const own = during.filter((l) => l.app === name);
      const gone = own.filter((l) => l.msg === 'dependency unavailable' && l.dependency === 'database');
      const back = own.filter((l) => l.msg === 'dependency back' && l.dependency === 'database');
      assert.equal(gone.length, 1, `${name}: ${JSON.stringify(gone)}`);
      assert.equal(back.length, 1, `${name}: ${JSON.stringify(back)}`);
      assert.ok(Number(back[0]!.down_ms) >= LEASE_MS, `${name}: down ${back[0]!.down_ms} ms`);
      assert.deepEqual(
        own.filter((l) => l.level >= 50).map((l) => l.msg),
        [],
        `${name}: error-level lines during the outage`,
      );
    }
  },
);
