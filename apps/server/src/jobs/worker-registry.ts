// The `workers` rows as the API reads them: every process that runs jobs renews its row every beat
// (job-runner.ts, JobConfig.heartbeatMs, 2 s); a row not renewed for three beats (its own `lease_ms`,
// not the jobs' JOB_LEASE) belongs to a process that died or hangs, and is shown dead at once: not live,
// nothing running (its jobs are the recovery's once their leases run out). Dead rows are forgotten
// after an hour.
import type { WorkerList } from '@tazamun/contracts/admin-workers';
import type { Db } from '../db/database.ts';
import type { WorkerRow } from '../db/schema.ts';
import { forgetWorkers, listWorkerRows } from '../db/workers.ts';

/** Rows older than this are removed when read: a process that died long ago is history, not a worker. */
export const FORGET_MS = 3600_000;

/** A row is live while its heartbeat is younger than its own lease. */
export function isLive(row: Pick<WorkerRow, 'heartbeat_at' | 'lease_ms'>, now: Date): boolean {
  return Date.parse(row.heartbeat_at) + Number(row.lease_ms) > now.getTime();
}

export async function listWorkers(db: Db, now: Date): Promise<WorkerList> {
  await forgetWorkers(db, new Date(now.getTime() - FORGET_MS).toISOString());
  const rows = await listWorkerRows(db);
  const workers = rows.map((r) => {
    const live = isLive(r, now);
    return {
      id: r.id,
      hostname: r.hostname,
      pid: Number(r.pid),
      transport: r.transport,
      concurrency: Number(r.concurrency),
      // a dead process runs nothing, whatever its last beat said
      running: live ? Number(r.running) : 0,
      completed: Number(r.completed),
      failed: Number(r.failed),
      stopping: Number(r.stopping) === 1,
      live,
      started_at: r.started_at,
      heartbeat_at: r.heartbeat_at,
    };
  });
  return { live: workers.filter((w) => w.live).length, workers };
}
