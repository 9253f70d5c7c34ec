// The workers repository: one row per process that runs jobs, renewed every beat by its runner
// (jobs/job-runner.ts) and read by the operator's list, readiness and metrics (jobs/worker-registry.ts
// says when a row is live).
import type { Db } from './database.ts';
import type { WorkerRow } from './schema.ts';

/** This process's figures, renewed every beat. */
export type WorkerFigures = Pick<
  WorkerRow,
  'running' | 'completed' | 'failed' | 'stopping' | 'heartbeat_at' | 'lease_ms'
>;

/** Writes this process's row, or renews it. */
export async function upsertWorker(
  db: Db,
  who: Pick<WorkerRow, 'id' | 'hostname' | 'pid' | 'transport' | 'concurrency' | 'started_at'>,
  figures: WorkerFigures,
): Promise<void> {
  await db
    .insertInto('workers')
    .values({ ...who, ...figures })
    .onConflict((oc) => oc.column('id').doUpdateSet(figures))
    .execute();
}

export async function deleteWorker(db: Db, id: string): Promise<void> {
  await db.deleteFrom('workers').where('id', '=', id).execute();
}

/** Rows whose last beat is older than `beforeIso`: processes long dead. */
export async function forgetWorkers(db: Db, beforeIso: string): Promise<void> {
  await db.deleteFrom('workers').where('heartbeat_at', '<', beforeIso).execute();
}

export function listWorkerRows(db: Db): Promise<WorkerRow[]> {
  return db.selectFrom('workers').selectAll().orderBy('started_at').orderBy('id').execute();
}

/** Each process's last beat and its lease, to tell live ones. */
export function workerBeats(db: Db) {
  return db.selectFrom('workers').select(['id', 'heartbeat_at', 'lease_ms', 'running']).execute();
}
