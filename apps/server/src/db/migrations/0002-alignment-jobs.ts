// Alignment jobs: the persisted queue, the rest of the Alignment entity, projects, public share links,
// rendered videos and the demo gallery. Portable column types only, as in 0001.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { isPostgres } from '../postgres.ts';

const ALIGNMENT_COLUMNS: [string, 'text' | 'integer' | 'double precision'][] = [
  ['options', 'text'],
  ['audio_file', 'text'],
  ['audio_format', 'text'],
  ['text_file', 'text'],
  ['result_file', 'text'],
  ['processed_text', 'text'],
  ['engine', 'text'],
  ['step', 'text'],
  ['progress', 'integer'],
  ['error_code', 'text'],
  ['error_params', 'text'],
  ['quota_day', 'text'],
  ['quota_refunded', 'integer'],
  ['search_text', 'text'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, type] of ALIGNMENT_COLUMNS) {
    await db.schema.alterTable('alignments').addColumn(name, type).execute();
  }
  await db.schema.createIndex('alignments_project_idx').on('alignments').column('project_id').execute();
  await db.schema.createIndex('alignments_status_idx').on('alignments').column('status').execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('alignment_id', 'text', (c) => c.notNull().references('alignments.id').onDelete('cascade'))
    .addColumn('video_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('timeout_ms', 'integer', (c) => c.notNull())
    .addColumn('lease_until', 'text')
    .addColumn('worker_id', 'text')
    .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('jobs_status_idx').on('jobs').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('jobs_alignment_idx').on('jobs').column('alignment_id').execute();

  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('projects_user_idx').on('projects').column('user_id').execute();

  await db.schema
    .createTable('shares')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('alignment_id', 'text', (c) =>
      c.notNull().unique().references('alignments.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('videos')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('alignment_id', 'text', (c) => c.notNull().references('alignments.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('file', 'text')
    .addColumn('file_size', 'integer')
    .addColumn('render_time', 'double precision')
    .addColumn('error_code', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema.createIndex('videos_alignment_idx').on('videos').column('alignment_id').execute();

  await db.schema
    .createTable('demos')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('alignment_id', 'text', (c) =>
      c.notNull().unique().references('alignments.id').onDelete('cascade'),
    )
    .addColumn('seed_key', 'text', (c) => c.unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('licence', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // Unassign alignments whose project row goes away (SQLite cannot add a foreign key to a table).
  if (isPostgres(db)) {
    await sql`create function projects_unassign() returns trigger language plpgsql as $$
      begin update alignments set project_id = null where project_id = old.id; return old; end $$`.execute(
      db,
    );
    await sql`create trigger projects_unassign after delete on projects
      for each row execute function projects_unassign()`.execute(db);
  } else {
    await sql`create trigger projects_unassign after delete on projects begin
      update alignments set project_id = null where project_id = old.id; end`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await sql`drop function if exists projects_unassign() cascade`.execute(db);
  else await sql`drop trigger if exists projects_unassign`.execute(db);
  for (const t of ['demos', 'videos', 'shares', 'projects', 'jobs']) await db.schema.dropTable(t).execute();
  for (const [name] of [...ALIGNMENT_COLUMNS].reverse()) {
    await db.schema.alterTable('alignments').dropColumn(name).execute();
  }
}
