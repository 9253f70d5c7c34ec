import type { Db } from './database.ts';

export function listOutbox(db: Db, toAddress?: string) {
  let q = db.selectFrom('email_outbox').selectAll().orderBy('created_at');
  if (toAddress) q = q.where('to_address', '=', toAddress);
  return q.execute();
}

export async function deleteOutboxFor(db: Db, toAddress: string): Promise<void> {
  await db.deleteFrom('email_outbox').where('to_address', '=', toAddress).execute();
}
