// The share links repository: one token per shared alignment, and the public lookup by token.
import type { Db } from './database.ts';
import type { AlignmentRow } from './schema.ts';

export interface ShareRow {
  token: string;
  alignment_id: string;
  created_at: string;
}

export function findShare(db: Db, alignmentId: string): Promise<ShareRow | undefined> {
  return db.selectFrom('shares').selectAll().where('alignment_id', '=', alignmentId).executeTakeFirst();
}

export async function createShare(db: Db, share: ShareRow): Promise<void> {
  await db.insertInto('shares').values(share).execute();
}

export async function deleteShare(db: Db, alignmentId: string): Promise<void> {
  await db.deleteFrom('shares').where('alignment_id', '=', alignmentId).execute();
}

/**
 * The completed alignment a token opens. A rejected (or no longer approved) owner's links stop at once,
 * whatever is left in shares.
 */
/** Every share link of the user's alignments. */
export async function deleteUserShares(db: Db, userId: string): Promise<void> {
  await db
    .deleteFrom('shares')
    .where('alignment_id', 'in', (eb) =>
      eb.selectFrom('alignments').select('id').where('user_id', '=', userId),
    )
    .execute();
}

export function sharedAlignment(db: Db, token: string): Promise<AlignmentRow | undefined> {
  return db
    .selectFrom('shares')
    .innerJoin('alignments', 'alignments.id', 'shares.alignment_id')
    .innerJoin('users', 'users.id', 'alignments.user_id')
    .selectAll('alignments')
    .where('shares.token', '=', token)
    .where('alignments.status', '=', 'completed')
    .where('users.status', '=', 'approved')
    .executeTakeFirst();
}
