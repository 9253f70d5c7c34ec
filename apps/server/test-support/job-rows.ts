// Waits for job rows to be final. A handler completes its alignment before the queue records the job's
// end, so a test that saw the alignment completed must still wait for the row.
import type { Db } from '../src/db/database.ts';
import { until } from './until.ts';

/** The rows once none is queued or processing. */
export async function jobRowsFinal(db: Db, ids: string[]) {
  let rows: { id: string; status: string; attempts: number; worker_id: string | null }[] = [];
  return until(
    () => `job rows to be final: ${JSON.stringify(rows)}`,
    async () => {
      rows = await db
        .selectFrom('jobs')
        .select(['id', 'status', 'attempts', 'worker_id'])
        .where('id', 'in', ids)
        .execute();
      const final =
        rows.length === ids.length && rows.every((r) => r.status !== 'queued' && r.status !== 'processing');
      return final && rows.map((r) => ({ ...r, attempts: Number(r.attempts) }));
    },
  );
}
