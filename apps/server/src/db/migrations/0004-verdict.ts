// The result's verdict (good | partial | mismatch | no_speech) as a column, so lists, the dashboard and
// share pages show it without reading each result file (ADR 0021).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('alignments').addColumn('verdict', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('alignments').dropColumn('verdict').execute();
}
