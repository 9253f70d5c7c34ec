// POST /api/alignments/{id}/retry/: a failed or cancelled alignment runs again on the files and options it
// was uploaded with. It is a new attempt, so it is counted like a new upload: one unit of today's quota,
// taken in the same transaction that puts the row back in the queue (the failed attempt's own unit was
// given back or not by the rule that applied to it).
import { utcDay } from '../clock.ts';
import { requeueEndedAlignment } from '../db/alignments.ts';
import { consumeQuota, findUserById } from '../db/users.ts';
import { createError } from '../errors.ts';
import { jobTimeoutMs } from '../jobs/job-config.ts';
import { presentQuota } from '../accounts/present-user.ts';
import type { FastifyInstance } from 'fastify';
import type { AlignmentRow } from '../db/schema.ts';

const RETRYABLE = new Set(['failed', 'cancelled']);

export async function retryAlignment(app: FastifyInstance, row: AlignmentRow): Promise<AlignmentRow> {
  if (!RETRYABLE.has(row.status)) throw createError('alignment_not_retryable', { status: row.status });
  const db = app.deps.db;
  const now = app.deps.clock.now();
  const today = utcDay(now);
  const nowIso = now.toISOString();
  const fresh = await db.transaction().execute(async (trx) => {
    if (!(await consumeQuota(trx, row.user_id, today))) {
      const user = (await findUserById(trx, row.user_id))!;
      throw createError('quota_exhausted', { limit: user.daily_limit }, { quota: presentQuota(user, now) });
    }
    const updated = await requeueEndedAlignment(trx, row.id, [...RETRYABLE], today, nowIso);
    if (!updated) throw createError('alignment_not_retryable', { status: 'queued' });
    await app.jobs.queue.enqueue(trx, {
      kind: 'align',
      userId: row.user_id,
      alignmentId: row.id,
      timeoutMs: jobTimeoutMs(app.jobs.config, row.duration ?? 0),
    });
    return updated;
  });
  app.jobs.queue.wake();
  return fresh;
}
