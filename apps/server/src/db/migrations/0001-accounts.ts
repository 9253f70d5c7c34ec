// Accounts, sessions, login throttling, feedback, e-mail outbox and the first shape of alignments.
// Column types are the portable subset (text, integer, double precision); the alignment jobs work
// extends `alignments` in its own migration.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull().unique())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('preferred_language', 'text', (c) => c.notNull().defaultTo('ar'))
    .addColumn('avatar_file', 'text')
    .addColumn('daily_limit', 'integer', (c) => c.notNull())
    .addColumn('used_today', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('quota_day', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_login_at', 'text')
    .addColumn('password_changed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_status_idx').on('users').column('status').execute();

  await db.schema
    .createTable('preferences')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('refresh_hash', 'text', (c) => c.notNull().unique())
    .addColumn('remember_me', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_agent', 'text')
    .addColumn('ip', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('used_refresh_tokens')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('used_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('used_refresh_tokens_session_idx')
    .on('used_refresh_tokens')
    .column('session_id')
    .execute();

  // Keyed by e-mail, not user, so unknown addresses are throttled the same way (no existence oracle).
  await db.schema
    .createTable('login_attempts')
    .addColumn('email_key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('first_failure_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .execute();

  await db.schema
    .createTable('feedback')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('email_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_outbox_to_idx').on('email_outbox').column('to_address').execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();

  await db.schema
    .createTable('alignments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'text')
    .addColumn('title', 'text')
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('detected_language', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('duration', 'double precision')
    .addColumn('confidence', 'double precision')
    .addColumn('wer', 'double precision')
    .addColumn('cer', 'double precision')
    .addColumn('words', 'integer')
    .addColumn('coverage', 'double precision')
    .addColumn('processing_time', 'double precision')
    .addColumn('file_name', 'text')
    .addColumn('file_size', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema
    .createIndex('alignments_user_created_idx')
    .on('alignments')
    .columns(['user_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'alignments',
    'password_resets',
    'email_outbox',
    'feedback',
    'login_attempts',
    'used_refresh_tokens',
    'sessions',
    'preferences',
    'users',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
