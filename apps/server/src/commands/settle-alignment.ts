// How an alignment follows its job's end when there is no result: failed or cancelled, and its quota
// unit given back when the failure was not the user's doing (or the job never ran). Read, refund and
// write in one transaction, so two settlements never give one unit back twice.
import type { ErrorCode } from '@tazamun/contracts/errors';
import { alignmentQuotaState, endAlignment } from '../db/alignments.ts';
import type { Db } from '../db/database.ts';
import { refundQuota } from '../db/users.ts';

/** The job failed: `refund` when the failure was not the user's (an engine fault, an outage). */
export async function failAlignment(
  db: Db,
  id: string,
  failure: { code: ErrorCode; params: Record<string, string | number>; refund: boolean },
  nowIso: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await alignmentQuotaState(trx, id);
    if (!row) return;
    const refund = failure.refund && row.quota_day !== null && !row.quota_refunded;
    if (refund) await refundQuota(trx, row.user_id, row.quota_day!);
    await endAlignment(
      trx,
      id,
      { status: 'failed', errorCode: failure.code, errorParams: failure.params },
      refund || row.quota_refunded === 1,
      nowIso,
    );
  });
}

/** Cancelled before it ran: the unit comes back. Cancelled while running: the work was done. */
export async function cancelAlignment(db: Db, id: string, nowIso: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await alignmentQuotaState(trx, id);
    if (!row) return;
    const refund = row.status === 'queued' && row.quota_day !== null && !row.quota_refunded;
    if (refund) await refundQuota(trx, row.user_id, row.quota_day!);
    await endAlignment(trx, id, { status: 'cancelled' }, refund || row.quota_refunded === 1, nowIso);
  });
}
