// Personal API tokens (known only by their SHA-256, like refresh tokens) and the personal lexicon the
// aligner consults before the model's dictionary and eSpeak. Portable column types only, as in 0001.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    // the first characters, so a user can tell two tokens apart without the secret
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('api_tokens_user_idx').on('api_tokens').column('user_id').execute();

  await db.schema
    .createTable('lexicon_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('language', 'text', (c) => c.notNull())
    // lower-cased, NFC: the key the aligner looks words up by
    .addColumn('word', 'text', (c) => c.notNull())
    .addColumn('ipa', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('lexicon_entries_user_language_word', ['user_id', 'language', 'word'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('lexicon_entries').execute();
  await db.schema.dropTable('api_tokens').execute();
}
