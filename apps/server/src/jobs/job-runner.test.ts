// The runner's ownership rule (ADR 0019): every write after the claim is keyed by the runner's worker
// id. A runner that stalled past its lease while another took the job over must not complete, fail,
// hand back or renew that job: the row belongs to the new holder. Two runners share one real database
// (SQLite, or PostgreSQL with TAZAMUN_TEST_DB=postgres), as two worker processes would. And a run whose
// end cannot be recorded at all (the database refusing every write through a shutdown) still gets its
// `job ended` line and its metric (issue 29, item 7).
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { loadConfig } from '../config.ts';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { TEST_DB, approvedUser, createTestApp } from '@tazamun/server/testing/test-app';
import { sqliteFileOf } from '../db/database.ts';
import { Metrics } from '../metrics/metrics.ts';
import { observeHandlers } from './observed-handler.ts';
import { JobRunner } from './job-runner.ts';
import { iso } from './job-rows.ts';
import { insertJobRow } from '../db/jobs.ts';
import type { JobConfig } from './job-config.ts';
import { JobAborted, JobFailure } from './job-queue.ts';
import type { JobContext, JobHandler, JobKind } from './job-queue.ts';
import type { Db } from '../db/database.ts';
import type { JobRow } from '../db/schema.ts';

function signalled(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A handler whose runs wait until the test lets each one end, and which records what the runner told it. */
class GatedHandler implements JobHandler {
  readonly calls: string[] = [];
  private release: ((outcome: 'ok' | Error) => void) | null = null;
  started = signalled();

  signal: AbortSignal | null = null;

  async run(job: JobRow, ctx: JobContext): Promise<void> {
    this.calls.push(`run ${job.worker_id}`);
    this.signal = ctx.signal;
    const outcome = await new Promise<'ok' | Error>((resolve) => {
      this.release = resolve;
      this.started.resolve();
    });
    if (outcome instanceof Error) throw outcome;
  }

  end(outcome: 'ok' | Error): void {
    assert.ok(this.release, 'no run is waiting');
    this.release(outcome);
    this.release = null;
    this.started = signalled();
  }

  async failed(job: JobRow, failure: JobFailure): Promise<void> {
    this.calls.push(`failed ${failure.code}`);
  }

  async cancelled(): Promise<void> {
    this.calls.push('cancelled');
  }

  async requeued(): Promise<void> {
    this.calls.push('requeued');
  }
}

const silent = pino({ level: 'silent' });

function runner(db: Db, config: JobConfig, handler: GatedHandler): JobRunner {
  const handlers = {
    align: handler,
    video: handler,
    realign: handler,
    adapt: handler,
  } satisfies Record<JobKind, JobHandler>;
  return new JobRunner(db, config, handlers, silent);
}

async function setup(t: TestContext) {
  // no runner of the app's own: the two below are the only ones
  const jobs: JobConfig = { ...loadConfig({}).jobs, concurrency: 0, demoMediaDir: null, leaseMs: 60_000 };
  const { app } = await createTestApp(t, { jobs });
  const db = app.deps.db;
  const u = await approvedUser(app);
  const now = iso();
  await db
    .insertInto('alignments')
    .values({
      id: 'al-runner',
      user_id: u.id,
      project_id: null,
      title: 'runner',
      language: 'eng',
      detected_language: null,
      status: 'processing',
      duration: 3,
      confidence: null,
      wer: null,
      cer: null,
      words: null,
      coverage: null,
      processing_time: null,
      file_name: 'x.wav',
      file_size: 1,
      created_at: now,
      updated_at: now,
      completed_at: null,
    })
    .execute();
  const jobId = await insertJobRow(
    db,
    { kind: 'align', userId: u.id, alignmentId: 'al-runner', timeoutMs: 600_000 },
    3,
    iso(),
  );
  const row = () => db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
  return { db, jobs, jobId, row };
}

/** A's lease runs out while it is stalled; B finds the expired row, queues it again and claims it. */
async function takeOver(db: Db, jobId: string, b: JobRunner): Promise<JobRow> {
  await db
    .updateTable('jobs')
    .set({ lease_until: iso(Date.now() - 1000) })
    .where('id', '=', jobId)
    .execute();
  const [expired] = await b.expiredRows();
  assert.equal(expired?.id, jobId);
  assert.equal(await b.recoverExpired(expired), 'requeued');
  const claimed = await b.claim(jobId);
  assert.ok(claimed && claimed !== 'deferred', 'B claims the queued job');
  assert.equal(claimed.worker_id, b.workerId);
  assert.equal(claimed.attempts, 2);
  return claimed;
}

test('a stale runner cannot complete a job another runner took over', async (t) => {
  const { db, jobs, jobId, row } = await setup(t);
  const handlerA = new GatedHandler();
  const handlerB = new GatedHandler();
  const a = runner(db, jobs, handlerA);
  const b = runner(db, jobs, handlerB);

  const claimedA = await a.claim(jobId);
  assert.ok(claimedA && claimedA !== 'deferred');
  assert.equal(claimedA.worker_id, a.workerId);
  const doneA = a.run(claimedA);
  await handlerA.started.promise;
  assert.equal(await b.claim(jobId), undefined, 'a processing job is not claimed twice');

  const claimedB = await takeOver(db, jobId, b);
  const doneB = b.run(claimedB);
  await handlerB.started.promise;

  // A's run ends well before its heartbeat noticed anything, but the row is B's: A records nothing
  handlerA.end('ok');
  assert.deepEqual(await doneA, { end: 'done' });
  const afterA = await row();
  assert.equal(afterA.status, 'processing');
  assert.equal(afterA.worker_id, b.workerId);
  assert.equal(afterA.finished_at, null);
  assert.deepEqual(handlerA.calls, [`run ${a.workerId}`]);

  handlerB.end('ok');
  assert.deepEqual(await doneB, { end: 'done' });
  const final = await row();
  assert.equal(final.status, 'completed');
  assert.equal(final.worker_id, b.workerId);
  assert.equal(final.attempts, 2);
  // B's recovery of the expired row told its handler; nothing of A's reached either handler
  assert.deepEqual(handlerB.calls, ['requeued', `run ${b.workerId}`]);
});

test('a stale runner whose run fails neither fails nor hands back the job another runner holds', async (t) => {
  const { db, jobs, jobId, row } = await setup(t);
  const handlerA = new GatedHandler();
  const handlerB = new GatedHandler();
  const a = runner(db, { ...jobs, retryBackoffMs: 0 }, handlerA);
  const b = runner(db, jobs, handlerB);

  const claimedA = await a.claim(jobId);
  assert.ok(claimedA && claimedA !== 'deferred');
  const doneA = a.run(claimedA);
  await handlerA.started.promise;
  const claimedB = await takeOver(db, jobId, b);
  const doneB = b.run(claimedB);
  await handlerB.started.promise;

  // an engine failure would be retried (handed back) and a plain one would fail the job: neither may
  // touch B's row
  handlerA.end(new JobFailure('alignment_failed', {}, { refund: true, retry: true }));
  // done, not handed back: the transport must not dispatch the job again
  assert.deepEqual(await doneA, { end: 'done' });
  const afterA = await row();
  assert.equal(afterA.status, 'processing');
  assert.equal(afterA.worker_id, b.workerId);
  assert.equal(afterA.failures, 0);
  assert.equal(afterA.attempts, 2);
  assert.deepEqual(handlerA.calls, [`run ${a.workerId}`]);

  // A stopping (a deploy) hands back only its own jobs
  await a.stop();
  assert.equal((await row()).status, 'processing');

  handlerB.end(new JobFailure('audio_undecodable', {}, { refund: true }));
  assert.deepEqual(await doneB, { end: 'done' });
  const final = await row();
  assert.equal(final.status, 'failed');
  assert.equal(final.worker_id, b.workerId);
  assert.deepEqual(handlerB.calls, ['requeued', `run ${b.workerId}`, 'failed audio_undecodable']);
});

test("a stale runner's heartbeat renews nothing of the new holder's and stops its own run", async (t) => {
  const { db, jobs, jobId, row } = await setup(t);
  const handlerA = new GatedHandler();
  const handlerB = new GatedHandler();
  const a = runner(db, jobs, handlerA);
  const b = runner(db, jobs, handlerB);

  const claimedA = await a.claim(jobId);
  assert.ok(claimedA && claimedA !== 'deferred');
  const doneA = a.run(claimedA);
  await handlerA.started.promise;
  const claimedB = await takeOver(db, jobId, b);
  const doneB = b.run(claimedB);
  await handlerB.started.promise;
  // B's lease, set back by hand so a renewal by anyone would show
  const mark = iso(Date.now() + 1000);
  await db.updateTable('jobs').set({ lease_until: mark }).where('id', '=', jobId).execute();

  await a.heartbeat();
  assert.equal((await row()).lease_until, mark);
  assert.equal(handlerA.signal?.aborted, true);
  assert.equal(handlerA.signal?.reason, 'lost');
  handlerA.end('ok');
  assert.deepEqual(await doneA, { end: 'done' });
  assert.equal((await row()).status, 'processing');

  await b.heartbeat();
  assert.notEqual((await row()).lease_until, mark, "B's heartbeat renews its own lease");
  assert.equal(handlerB.signal?.aborted, false);
  handlerB.end('ok');
  assert.deepEqual(await doneB, { end: 'done' });
  assert.equal((await row()).status, 'completed');
});

test('a run whose end cannot be recorded through a shutdown is abandoned: one job ended line, one metric', async (t) => {
  const { db, jobs, jobId, row } = await setup(t);
  const lines: Record<string, unknown>[] = [];
  const log = pino(
    { level: 'info' },
    {
      write: (l: string) => {
        lines.push(JSON.parse(l) as Record<string, unknown>);
      },
    },
  );
  // a run that lasts until it is told to stop
  const started = signalled();
  const waiting: JobHandler = {
    async run(_job, ctx) {
      started.resolve();
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
      throw new JobAborted(ctx.signal.reason);
    },
    failed: async () => undefined,
    cancelled: async () => undefined,
    requeued: async () => undefined,
  };
  const metrics = new Metrics('worker');
  const handlers = observeHandlers(
    { align: waiting, video: waiting, realign: waiting, adapt: waiting },
    db,
    log,
    metrics,
  );
  const a = new JobRunner(db, { ...jobs, drainMs: 0 }, handlers, log);
  const claimed = await a.claim(jobId);
  assert.ok(claimed && claimed !== 'deferred');
  const done = a.run(claimed);
  await started.promise;

  // from now on the database refuses to write the job, as one that is going away does
  let release = async (): Promise<void> => undefined;
  if (TEST_DB === 'postgres') {
    await sql`create function tazamun_test_gone() returns trigger language plpgsql as $$
      begin raise exception 'the database system is shutting down' using errcode = '57P03'; end $$`.execute(
      db,
    );
    await sql`create trigger tazamun_test_gone before update on jobs
      for each row execute function tazamun_test_gone()`.execute(db);
    release = async () => void (await sql`drop trigger tazamun_test_gone on jobs`.execute(db));
  } else {
    const other = new Database(sqliteFileOf(db)!);
    other.exec('BEGIN IMMEDIATE');
    release = async () => {
      other.exec('ROLLBACK');
      other.close();
    };
  }
  try {
    // the shutdown hands the job back; the write waits for the database, then gives up
    await a.stop();
    assert.deepEqual(await done, { end: 'done' });
  } finally {
    await release();
  }
  const ended = lines.filter((l) => l.msg === 'job ended');
  assert.deepEqual(
    ended.map((l) => [l.job, l.outcome]),
    [[jobId, 'abandoned']],
  );
  assert.ok(lines.some((l) => l.level === 50 && String(l.msg).startsWith('abandoned')));
  assert.match(await metrics.scrape(), /^tazamun_job_runs_total\{[^}]*outcome="abandoned"[^}]*\} 1$/m);
  // nothing was recorded: the row waits for its lease to run out, and a recovery
  const left = await row();
  assert.equal(left.status, 'processing');
  assert.equal(left.worker_id, a.workerId);
});
