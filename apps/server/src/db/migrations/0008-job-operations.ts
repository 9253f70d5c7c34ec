// Operations (issue 19): what an operator needs to follow and administer jobs. jobs.last_error keeps the
// engine's own message of the last failed run (the alignment keeps only the catalogue code the user
// sees); alignments.request_id ties a job's log lines to the upload request that created it.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('last_error', 'text').execute();
  await db.schema.alterTable('alignments').addColumn('request_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('alignments').dropColumn('request_id').execute();
  await db.schema.alterTable('jobs').dropColumn('last_error').execute();
}
