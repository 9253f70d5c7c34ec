// The e-mail outbox: mails the platform would send, kept in the database (the operator reads them; no
// mail leaves the machine).
import { randomUUID } from 'node:crypto';
import type { Db } from './database.ts';

export function listOutbox(db: Db, toAddress?: string) {
  let q = db.selectFrom('email_outbox').selectAll().orderBy('created_at');
  if (toAddress) q = q.where('to_address', '=', toAddress);
  return q.execute();
}

export async function deleteOutboxFor(db: Db, toAddress: string): Promise<void> {
  await db.deleteFrom('email_outbox').where('to_address', '=', toAddress).execute();
}

export async function insertOutboxMail(
  db: Db,
  mail: { toAddress: string; subject: string; body: string; kind: string; createdAt: string },
): Promise<void> {
  await db
    .insertInto('email_outbox')
    .values({
      id: randomUUID(),
      to_address: mail.toAddress,
      subject: mail.subject,
      body: mail.body,
      kind: mail.kind,
      created_at: mail.createdAt,
    })
    .execute();
}
