// What GET /api/ready/ tells a load balancer, in one function that later checks join. Two answers:
// - cannot serve (503): the database does not answer, does not take writes (a full disk) or a
//   migration is pending (also while this process is still waiting for its database at start).
// - degraded (200, degraded: true): this process serves, something around it is short. Redis away
//   (uploads are still taken: the row is the queue's record and the reconciler hands it to BullMQ
//   later; progress reaches streams by polling), jobs waiting with no live worker to take them, or the
//   files' disk below MIN_FREE_DISK_MB (uploads are refused with 507; sign-ins still work).
// The checks run at once and each answers within CHECK_MS, so the probe answers within about half a
// second however frozen a dependency is: a frozen Redis or database makes its check "timeout", never
// the probe hang past a load balancer's usual one-second probe timeout.
import type { FastifyInstance } from 'fastify';
import { backlog } from '../../db/jobs.ts';
import { workerBeats } from '../../db/workers.ts';
import { pingDatabase, probeDatabaseWrite } from '../../db/database.ts';
import { freeBytes } from '../../reliability/disk-space.ts';
import { isLive } from '../../jobs/worker-registry.ts';

export const CHECK_MS = 400;
/** A waiting job older than this, with no job running anywhere, means no worker is taking jobs. */
export const STALLED_BACKLOG_MS = 60_000;

export type CheckState =
  'ok' | 'down' | 'timeout' | 'pending_migrations' | 'not_writable' | 'no_live_workers' | 'low_space';

export interface Readiness {
  /** false: answer 503, take this instance out of rotation */
  ready: boolean;
  /** true: serving, but something is short (the checks say what) */
  degraded: boolean;
  checks: Record<string, CheckState>;
}

const TIMED_OUT = Symbol('timeout');

async function bounded(p: Promise<CheckState>): Promise<CheckState> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), CHECK_MS);
  });
  const r = await Promise.race([p.catch((): CheckState => 'down'), late]).finally(() => clearTimeout(timer));
  return r === TIMED_OUT ? 'timeout' : r;
}

/**
 * One write when all is well (a full disk answers selects and refuses every sign-in, so reads alone
 * are not enough); the ping that tells "down" from "not writable" only when the write failed. Until
 * this process's start-up migration is done (its API routes answer 503 meanwhile), a database that
 * answers is `pending_migrations`.
 */
async function databaseState(app: FastifyInstance): Promise<CheckState> {
  const db = app.deps.db;
  if (!app.databaseReady.settled) return (await pingDatabase(db)) ? 'pending_migrations' : 'down';
  if (await probeDatabaseWrite(db, app.deps.clock.now().toISOString())) return 'ok';
  return (await pingDatabase(db)) ? 'not_writable' : 'down';
}

async function redisState(app: FastifyInstance): Promise<CheckState> {
  return (await app.redisSignals!.ping()) ? 'ok' : 'down';
}

/**
 * Jobs waiting while no worker's heartbeat is current (the `workers` registry), or waiting longer than
 * STALLED_BACKLOG_MS while no job runs anywhere: nobody is taking jobs. A process that runs jobs itself
 * counts as a worker.
 */
async function workersState(app: FastifyInstance, now: Date): Promise<CheckState> {
  if (app.jobs.config.concurrency > 0) return 'ok';
  const db = app.deps.db;
  const [jobs, registry] = await Promise.all([backlog(db), workerBeats(db)]);
  if (jobs.queued > 0 && !registry.some((w) => isLive(w, now))) return 'no_live_workers';
  const oldest = jobs.oldest ? Date.parse(jobs.oldest) : null;
  const stalled = oldest !== null && now.getTime() - oldest > STALLED_BACKLOG_MS;
  return stalled && jobs.running === 0 ? 'no_live_workers' : 'ok';
}

/** The files' disk under MIN_FREE_DISK_MB: uploads are refused (507), the rest works. */
async function diskState(app: FastifyInstance): Promise<CheckState> {
  return (await freeBytes(app.deps.config.dataDir)) < app.deps.config.minFreeDiskBytes ? 'low_space' : 'ok';
}

export async function checkReadiness(app: FastifyInstance): Promise<Readiness> {
  const watchDisk = app.deps.config.minFreeDiskBytes > 0;
  const [database, redis, workers, disk] = await Promise.all([
    bounded(databaseState(app)),
    app.redisSignals ? bounded(redisState(app)) : Promise.resolve(null),
    // job rows carry wall-clock times, hence the system clock here
    bounded(workersState(app, new Date())),
    watchDisk ? bounded(diskState(app)) : Promise.resolve(null),
  ]);
  const checks: Record<string, CheckState> = { database };
  if (redis) checks.redis = redis;
  // the backlog is read only from a database that answers
  if (database === 'ok') checks.workers = workers;
  if (disk) checks.disk = disk;
  const ready = database === 'ok';
  const degraded = ready && Object.values(checks).some((s) => s !== 'ok');
  return { ready, degraded, checks };
}
