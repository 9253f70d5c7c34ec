import type { Db } from '../db/database.ts';
// Waits for job rows to be final. A handler completes its alignment before the queue records the job's
// end, so a test that saw the alignment completed must still wait for the row.

/** The rows once none is queued or processing; the deadline only turns a hang into a failure. */
export async function jobRowsFinal(db: Db, ids: string[]) {
  const giveUp = Date.now() + 120_000;
  for (;;) {
    const rows = await db
      .selectFrom('jobs')
      .select(['id', 'status', 'attempts', 'worker_id'])
      .where('id', 'in', ids)
      .execute();
    if (rows.length === ids.length && rows.every((r) => r.status !== 'queued' && r.status !== 'processing'))
      return rows.map((r) => ({ ...r, attempts: Number(r.attempts) }));
    if (Date.now() > giveUp) throw new Error(`job rows never final: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
