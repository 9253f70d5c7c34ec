import type { Db } from './database.ts';
import type { FeedbackRow } from './schema.ts';

export async function insertFeedback(db: Db, row: FeedbackRow): Promise<void> {
  await db.insertInto('feedback').values(row).execute();
}

export function listFeedback(db: Db, userId?: string) {
  let q = db
    .selectFrom('feedback')
    .leftJoin('users', 'users.id', 'feedback.user_id')
    .select([
      'feedback.id',
      'feedback.user_id',
      'users.email as user_email',
      'feedback.type',
      'feedback.subject',
      'feedback.message',
      'feedback.created_at',
    ])
    .orderBy('feedback.created_at', 'desc');
  if (userId) q = q.where('feedback.user_id', '=', userId);
  return q.execute();
}
