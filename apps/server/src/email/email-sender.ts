// E-mail is the edge of the system: routes talk to this interface. The default implementation keeps
// every message in the email_outbox table and logs it, so an operator (or a test) can read what would
// have been sent; an SMTP sender can replace it without touching the routes.
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { insertOutboxMail } from '../db/email-outbox.ts';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  /** what the mail is about, e.g. 'password_reset', 'approved' */
  kind: string;
}

export interface EmailSender {
  send(mail: OutgoingEmail): Promise<void>;
}

export class OutboxEmailSender implements EmailSender {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: Pick<FastifyBaseLogger, 'info'>,
  ) {}

  async send(mail: OutgoingEmail): Promise<void> {
    await insertOutboxMail(this.db, {
      toAddress: mail.to.toLowerCase(),
      subject: mail.subject,
      body: mail.text,
      kind: mail.kind,
      createdAt: this.clock.now().toISOString(),
    });
    this.log.info(
      { to: mail.to, subject: mail.subject, kind: mail.kind },
      'email queued in outbox (not sent)',
    );
  }
}
