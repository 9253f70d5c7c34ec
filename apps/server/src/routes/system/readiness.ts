// What GET /api/ready/ tells a load balancer, in one function that later checks join. Two answers:
// - cannot serve (503): the database does not answer, does not take writes (a full disk) or a
//   migration is pending. Nothing useful works.
// - degraded (200, degraded: true): this process serves, something around it is short. Redis away
//   (uploads are still taken: the row is the queue's record and the reconciler hands it to BullMQ
//   later; progress reaches streams by polling), or jobs waiting with no worker taking them.
// Every check answers within CHECK_MS: a frozen Redis or database makes its check "timeout", never the
// probe hang (a load balancer's own probe timeout would otherwise decide for us).
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { pendingMigrations, pingDatabase, probeDatabaseWrite } from '../../db/database.ts';

export const CHECK_MS = 1000;
/** A waiting job older than this, with no job running anywhere, means no worker is taking jobs. */
export const STALLED_BACKLOG_MS = 60_000;

export type CheckState =
  'ok' | 'down' | 'timeout' | 'pending_migrations' | 'not_writable' | 'no_live_workers';

export interface Readiness {
  /** false: answer 503, take this instance out of rotation */
  ready: boolean;
  /** true: serving, but something is short (the checks say what) */
  degraded: boolean;
  checks: Record<string, CheckState>;
}

const TIMED_OUT = Symbol('timeout');

async function bounded<T>(p: Promise<T>): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), CHECK_MS);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

async function databaseState(app: FastifyInstance): Promise<CheckState> {
  const r = await bounded(
    (async (): Promise<CheckState> => {
      if (!(await pingDatabase(app.deps.db))) return 'down';
      if ((await pendingMigrations(app.deps.db)) !== 0) return 'pending_migrations';
      // reads alone are not enough: a full disk answers selects and refuses every sign-in
      const now = app.deps.clock.now().toISOString();
      return (await probeDatabaseWrite(app.deps.db, now)) ? 'ok' : 'not_writable';
    })().catch((): CheckState => 'down'),
  );
  return r === TIMED_OUT ? 'timeout' : r;
}

async function redisState(app: FastifyInstance): Promise<CheckState> {
  const r = await bounded(app.redisSignals!.ping());
  return r === TIMED_OUT ? 'timeout' : r ? 'ok' : 'down';
}

/**
 * Jobs waiting longer than STALLED_BACKLOG_MS while no job runs anywhere: no live worker. Read from
 * the rows (workers do not register themselves yet); a process that runs jobs itself counts as one.
 */
async function workersState(app: FastifyInstance, now: Date): Promise<CheckState> {
  if (app.jobs.config.concurrency > 0) return 'ok';
  const db = app.deps.db;
  const r = await bounded(
    (async (): Promise<CheckState> => {
      const row = await db
        .selectFrom('jobs')
        .select([
          sql<number>`sum(case when status = 'processing' then 1 else 0 end)`.as('running'),
          sql<string | null>`min(case when status = 'queued' then created_at end)`.as('oldest'),
        ])
        .where('status', 'in', ['queued', 'processing'])
        .executeTakeFirst();
      const oldest = row?.oldest ? Date.parse(row.oldest) : null;
      const stalled = oldest !== null && now.getTime() - oldest > STALLED_BACKLOG_MS;
      return stalled && Number(row?.running ?? 0) === 0 ? 'no_live_workers' : 'ok';
    })().catch((): CheckState => 'down'),
  );
  return r === TIMED_OUT ? 'timeout' : r;
}

export async function checkReadiness(app: FastifyInstance): Promise<Readiness> {
  const [database, redis] = await Promise.all([
    databaseState(app),
    app.redisSignals ? redisState(app) : Promise.resolve(null),
  ]);
  const checks: Record<string, CheckState> = { database };
  if (redis) checks.redis = redis;
  // the backlog is read only from a database that answers; job rows carry wall-clock times
  if (database === 'ok') checks.workers = await workersState(app, new Date());
  const ready = database === 'ok';
  const degraded = ready && Object.values(checks).some((s) => s !== 'ok');
  return { ready, degraded, checks };
}
