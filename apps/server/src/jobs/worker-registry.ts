// The `workers` rows as the API reads them: every process that runs jobs renews its row (job-runner.ts);
// one whose heartbeat is older than its lease died or hangs, and no longer counts as live.
import type { WorkerList } from '@tazamun/contracts/admin-workers';
import type { Db } from '../db/database.ts';

/** Rows older than this are removed when read: a process that died long ago is history, not a worker. */
const FORGET_MS = 24 * 3600_000;

export async function listWorkers(db: Db, now: Date): Promise<WorkerList> {
  await db
    .deleteFrom('workers')
    .where('heartbeat_at', '<', new Date(now.getTime() - FORGET_MS).toISOString())
    .execute();
  const rows = await db.selectFrom('workers').selectAll().orderBy('started_at').orderBy('id').execute();
  const workers = rows.map((r) => ({
    id: r.id,
    hostname: r.hostname,
    pid: Number(r.pid),
    transport: r.transport,
    concurrency: Number(r.concurrency),
    running: Number(r.running),
    completed: Number(r.completed),
    failed: Number(r.failed),
    stopping: Number(r.stopping) === 1,
    live: Date.parse(r.heartbeat_at) + Number(r.lease_ms) > now.getTime(),
    started_at: r.started_at,
    heartbeat_at: r.heartbeat_at,
  }));
  return { live: workers.filter((w) => w.live).length, workers };
}
