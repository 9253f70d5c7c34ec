// Corrections of an alignment: one row per saved revision after the engine's (the result JSON itself
// is a file in the user's folder), and the requests to re-align a stretch. Portable column types only.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('alignment_revisions')
    .addColumn('alignment_id', 'text', (c) => c.notNull().references('alignments.id').onDelete('cascade'))
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('changed_words', 'text', (c) => c.notNull())
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // Two saves on the same base both try the same number: the key lets exactly one win.
    .addPrimaryKeyConstraint('alignment_revisions_pk', ['alignment_id', 'revision'])
    .execute();

  await db.schema
    .createTable('realignments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('alignment_id', 'text', (c) => c.notNull().references('alignments.id').onDelete('cascade'))
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('start_time', 'double precision', (c) => c.notNull())
    .addColumn('end_time', 'double precision', (c) => c.notNull())
    .addColumn('text', 'text')
    .addColumn('base_revision', 'integer', (c) => c.notNull())
    .addColumn('revision', 'integer')
    .addColumn('error_code', 'text')
    .addColumn('error_params', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema
    .createIndex('realignments_alignment_idx')
    .on('realignments')
    .column('alignment_id')
    .execute();
  await db.schema.createIndex('realignments_job_idx').on('realignments').column('job_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('realignments').execute();
  await db.schema.dropTable('alignment_revisions').execute();
}
