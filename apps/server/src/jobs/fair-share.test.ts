// Issue 27, item 4: free jobs (videos, re-alignments) must not starve another user's paying job. The
// same scenario runs on both transports the runner serves, the database poll and BullMQ (a real
// redis-server), on a real database (SQLite, or PostgreSQL with TAZAMUN_TEST_DB=postgres): with two
// slots, user A floods the queue with two more re-alignments and three videos while one of A's
// re-alignments runs; user B's upload comes last, in the same commit (the free slot must go to B) or
// while both slots are busy (B must be the next to start). A never runs two jobs of one free kind at
// once, and A's re-alignments wait for A's running one. The jobs' work is a gate the test opens, so
// what is asserted is the order, never a time.
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { loadConfig } from '../config.ts';
import { approvedUser, bearer, createTestApp, expectError } from '@tazamun/server/testing/test-app';
import { completedAlignment } from '@tazamun/server/testing/completed-alignment';
import { startRedis } from '@tazamun/server/testing/redis-server';
import { until } from '@tazamun/server/testing/until';
import { Queue } from 'bullmq';
import { BULL_QUEUE_NAME, BullJobQueue } from './bull-job-queue.ts';
import { DbJobQueue } from './db-job-queue.ts';
import { iso } from './job-rows.ts';
import type { JobConfig } from './job-config.ts';
import type { JobContext, JobHandler, JobKind, JobQueue } from './job-queue.ts';
import type { Db } from '../db/database.ts';
import type { JobRow } from '../db/schema.ts';

/** Runs wait until the test opens their gate; records the order they started in and what runs now. */
class Gates implements JobHandler {
  readonly started: string[] = [];
  readonly running = new Map<string, () => void>();
  /** the most jobs of one user and free kind seen running at once */
  worstOverlap = 0;

  constructor(private readonly label: (job: JobRow) => string) {}

  async run(job: JobRow, ctx: JobContext): Promise<void> {
    const name = this.label(job);
    this.started.push(name);
    const [user, kind] = name.split(':');
    if (kind !== 'align') {
      const same = [...this.running.keys()].filter((n) => n.startsWith(`${user}:${kind}:`)).length + 1;
      this.worstOverlap = Math.max(this.worstOverlap, same);
    }
    await new Promise<void>((resolve) => {
      this.running.set(name, resolve);
      // the queue stopping (a failed test's clean-up) aborts the run: it ends at once
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  open(name: string): void {
    const release = this.running.get(name);
    assert.ok(release, `${name} is not running (running: ${[...this.running.keys()].join(', ')})`);
    this.running.delete(name);
    release();
  }

  async failed(): Promise<void> {}
  async cancelled(): Promise<void> {}
  async requeued(): Promise<void> {}
}

async function alignment(db: Db, id: string, userId: string): Promise<void> {
  const now = iso();
  await db
    .insertInto('alignments')
    .values({
      id,
      user_id: userId,
      project_id: null,
      title: id,
      language: 'eng',
      detected_language: null,
      status: 'completed',
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
      completed_at: now,
    })
    .execute();
}

type Transport = 'database' | 'bullmq';
type Arrival = 'with the flood' | 'while busy';

async function scenario(t: TestContext, transport: Transport, arrival: Arrival): Promise<void> {
  // the app's own runner is off: the queue below, with its gates, is the only one
  const config: JobConfig = {
    ...loadConfig({}).jobs,
    concurrency: 2,
    pollMs: 100,
    leaseMs: 60_000,
    demoMediaDir: null,
    seedDemos: false,
  };
  const { app } = await createTestApp(t, { jobs: { ...config, concurrency: 0 } });
  const db = app.deps.db;
  const a = await approvedUser(app);
  const b = await approvedUser(app);
  for (const k of [1, 2, 3]) await alignment(db, `a${k}`, a.id);
  await alignment(db, 'b1', b.id);
  const names = new Map<string, string>();
  const gates = new Gates((job) => names.get(job.id) ?? job.id);
  const handlers = {
    align: gates,
    video: gates,
    realign: gates,
    adapt: gates,
  } satisfies Record<JobKind, JobHandler>;
  const log = pino({ level: 'silent' });
  let queue: JobQueue;
  /** resolves once BullMQ holds the job (its add runs after wake(), asynchronously); at once otherwise */
  let dispatched = async (_id: string): Promise<void> => undefined;
  if (transport === 'bullmq') {
    const redis = await startRedis();
    const prefix = `fair-${Date.now()}`;
    queue = new BullJobQueue(db, config, handlers, log, {
      redisUrl: redis.url,
      prefix,
      reconcileMs: 60_000,
    });
    const bull = new Queue(BULL_QUEUE_NAME, { connection: { url: redis.url }, prefix });
    dispatched = async (id) => {
      await until(`job ${id} to reach BullMQ`, async () => (await bull.getJob(id)) != null);
    };
    t.after(async () => {
      await queue.stop();
      await bull.close();
      await redis.stop();
    });
  } else {
    queue = new DbJobQueue(db, config, handlers, log);
    t.after(() => queue.stop());
  }
  await queue.start();

  // jobs made within one millisecond would tie on created_at: each gets its own, in the order made
  const base = Date.now();
  const enqueue = async (name: string, kind: JobKind, alignmentId: string, via: Db = db) => {
    const userId = alignmentId.startsWith('a') ? a.id : b.id;
    const id = await queue.enqueue(via, { kind, userId, alignmentId, timeoutMs: 600_000 });
    await via
      .updateTable('jobs')
      .set({ created_at: iso(base + names.size) })
      .where('id', '=', id)
      .execute();
    names.set(id, name);
    return id;
  };
  /** Waits until `n` jobs have started, then says which: a wrong order fails here, it never hangs. */
  const startedFirst = async (n: number) => {
    await until(
      () => `${n} jobs to have started (started: ${gates.started.join(', ')})`,
      () => gates.started.length >= n,
    );
    return [...gates.started];
  };

  // A's first re-alignment takes a slot
  await enqueue('A:realign:1', 'realign', 'a1');
  queue.wake();
  assert.deepEqual(await startedFirst(1), ['A:realign:1']);
  const flood = async (via: Db) => {
    await enqueue('A:realign:2', 'realign', 'a2', via);
    await enqueue('A:realign:3', 'realign', 'a3', via);
    await enqueue('A:video:1', 'video', 'a1', via);
    await enqueue('A:video:2', 'video', 'a2', via);
    await enqueue('A:video:3', 'video', 'a3', via);
  };
  let order: string[];
  if (arrival === 'with the flood') {
    // A floods the queue and B's paying job comes last, in one commit: the free slot goes to B at once,
    // although A's five jobs are older
    await db.transaction().execute(async (trx) => {
      await flood(trx);
      await enqueue('B:align:1', 'align', 'b1', trx);
    });
    queue.wake();
    assert.deepEqual(await startedFirst(2), ['A:realign:1', 'B:align:1']);
    // B's job ends: A's next re-alignment must wait for A's running one, so a video runs instead
    gates.open('B:align:1');
    assert.deepEqual((await startedFirst(3)).slice(2), ['A:video:1']);
    gates.open('A:video:1');
    order = ['A:realign:1', 'B:align:1', 'A:video:1'];
  } else {
    // A floods the queue: the free slot is used at once, but not by A's second re-alignment
    await db.transaction().execute(flood);
    queue.wake();
    assert.deepEqual(await startedFirst(2), ['A:realign:1', 'A:video:1']);
    // B's paying job arrives while both slots are busy: it is the next to start, ahead of A's four
    // older jobs, so A's free work delays it by one job at most
    const late = await enqueue('B:align:1', 'align', 'b1');
    queue.wake();
    await dispatched(late);
    gates.open('A:video:1');
    assert.deepEqual((await startedFirst(3)).slice(2), ['B:align:1']);
    gates.open('B:align:1');
    order = ['A:realign:1', 'A:video:1', 'B:align:1'];
  }
  // then A's turn: a video (the re-alignments wait for A's running one), and so on one at a time
  assert.deepEqual((await startedFirst(4)).slice(3), ['A:video:2']);
  gates.open('A:realign:1');
  assert.deepEqual((await startedFirst(5)).slice(4), ['A:realign:2']);
  gates.open('A:video:2');
  assert.deepEqual((await startedFirst(6)).slice(5), ['A:video:3']);
  gates.open('A:realign:2');
  assert.deepEqual((await startedFirst(7)).slice(6), ['A:realign:3']);
  gates.open('A:video:3');
  gates.open('A:realign:3');
  assert.deepEqual(gates.started, [...order, 'A:video:2', 'A:realign:2', 'A:video:3', 'A:realign:3']);
  assert.equal(gates.worstOverlap, 1, 'A never ran two jobs of one free kind at once');
  await until('every job row to be final', async () => {
    const open = await db
      .selectFrom('jobs')
      .select('id')
      .where('status', 'in', ['queued', 'processing'])
      .execute();
    return open.length === 0;
  });
}

for (const transport of ['database', 'bullmq'] as const)
  for (const arrival of ['with the flood', 'while busy'] as const)
    test(`free jobs yield to another user’s paying job arriving ${arrival}, one at a time per kind (${transport})`, async (t) => {
      await scenario(t, transport, arrival);
    });

test('a user keeps at most three videos and three re-alignments waiting or running: the fourth is 429', async (t) => {
  // no runner: every job stays queued, as behind a busy worker
  const { app } = await createTestApp(t, {
    jobs: { ...loadConfig({}).jobs, concurrency: 0, demoMediaDir: null },
  });
  const a = await approvedUser(app);
  const b = await approvedUser(app);
  const mine: string[] = [];
  for (let k = 0; k < 4; k++) mine.push((await completedAlignment(app, a.id)).id);
  const theirs = (await completedAlignment(app, b.id)).id;
  const video = (who: { access: string }, id: string, lang = 'en') =>
    app.inject({
      method: 'POST',
      url: `/api/alignments/${id}/video/`,
      headers: { ...bearer(who.access), 'accept-language': lang },
      payload: { resolution: 'fullhd' },
    });
  const realign = (id: string) =>
    app.inject({
      method: 'POST',
      url: `/api/alignments/${id}/realign/`,
      headers: bearer(a.access),
      payload: { start: 0.2, end: 1.5 },
    });
  const jobs = () => app.deps.db.selectFrom('jobs').select(['kind', 'status']).execute();

  for (const id of mine.slice(0, 3)) assert.equal((await video(a, id)).statusCode, 202);
  const fourth = expectError(await video(a, mine[3]!), 429, 'too_many_videos');
  assert.equal(
    fourth.detail,
    'You already have 3 videos waiting or rendering (at most 3 at a time). Wait for one to finish, then try again.',
  );
  const fr = expectError(await video(a, mine[3]!, 'fr'), 429, 'too_many_videos');
  assert.match(String(fr.detail), /^Vous avez déjà 3 vidéos en attente/);
  // asking again for a video already queued answers it as it is, and another user is not affected
  assert.equal((await video(a, mine[0]!)).statusCode, 202);
  assert.equal((await video(b, theirs)).statusCode, 202);

  for (const id of mine.slice(0, 3)) assert.equal((await realign(id)).statusCode, 202, id);
  expectError(await realign(mine[3]!), 429, 'too_many_realignments');
  assert.equal((await jobs()).length, 3 + 1 + 3, 'the refused requests wrote no job');

  // one cancelled: room for one more
  const queued = await app.deps.db
    .selectFrom('jobs')
    .innerJoin('alignments', 'alignments.id', 'jobs.alignment_id')
    .select('jobs.id')
    .where('alignments.user_id', '=', a.id)
    .where('jobs.kind', '=', 'video')
    .executeTakeFirstOrThrow();
  assert.equal(await app.jobs.queue.cancel(queued.id), 'cancelled');
  assert.equal((await video(a, mine[3]!)).statusCode, 202);
});
