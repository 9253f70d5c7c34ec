// Models that learn (issue 31, ADR 0070): a project's adapted acoustic models, the job that adapts one,
// and what an upload records about the model that aligned it.
// - `models`: one row per adaptation of a project's recordings in one language, with its job's state
//   and, once completed, the engine's manifest and the folder's size (the files are in the file store
//   under users/<id>/models/<model id>/).
// - `jobs` gains `user_id` (whose work it is: the fair order and the one-at-a-time rule read it, also for
//   a job that works on no alignment) and `model_id`; `alignment_id` may now be null (an adaptation
//   works on a project's corpus). SQLite cannot drop a NOT NULL, so its jobs table is rebuilt; nothing
//   references jobs, and its rows keep their ids.
// - `alignments.model_id`, `alignments.model_name`: the adapted model chosen for the upload (the name
//   stays when the model is deleted, as it stays in the result's engine.model).
// - `projects.use_adapted_model`: later uploads to the project use its newest completed model of their
//   language while this is 1.
// - `realignments.whole`: 1 for a re-run of the whole recording (a project re-aligned with its model),
//   which keeps the hand-corrected words instead of re-aligning a stretch.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { isPostgres } from '../postgres.ts';

const JOB_COLUMNS = [
  'id',
  'kind',
  'alignment_id',
  'video_id',
  'status',
  'attempts',
  'max_attempts',
  'timeout_ms',
  'lease_until',
  'worker_id',
  'cancel_requested',
  'created_at',
  'updated_at',
  'started_at',
  'finished_at',
  'failures',
  'run_after',
  'last_error',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('models')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    /** ISO 639-3 */
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    /** the engine's name for the model (its manifest id), set once completed */
    .addColumn('name', 'text')
    /** the engine's manifest (tazamun-model.json), JSON text */
    .addColumn('manifest', 'text')
    .addColumn('size_bytes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_code', 'text')
    .addColumn('error_params', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema
    .createIndex('models_project_idx')
    .on('models')
    .columns(['project_id', 'language'])
    .execute();
  await db.schema.createIndex('models_user_idx').on('models').column('user_id').execute();

  if (isPostgres(db)) {
    await sql`alter table jobs add column user_id text references users(id) on delete cascade`.execute(db);
    await sql`update jobs set user_id = (select a.user_id from alignments a where a.id = jobs.alignment_id)`.execute(
      db,
    );
    await sql`alter table jobs alter column user_id set not null`.execute(db);
    await sql`alter table jobs alter column alignment_id drop not null`.execute(db);
    await sql`alter table jobs add column model_id text references models(id) on delete cascade`.execute(db);
  } else {
    await db.schema
      .createTable('jobs_new')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('alignment_id', 'text', (c) => c.references('alignments.id').onDelete('cascade'))
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
      .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('run_after', 'text')
      .addColumn('last_error', 'text')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('model_id', 'text', (c) => c.references('models.id').onDelete('cascade'))
      .execute();
    const cols = sql.join(JOB_COLUMNS.map((c) => sql.ref(`j.${c}`)));
    const names = sql.join(JOB_COLUMNS.map((c) => sql.ref(c)));
    await sql`insert into jobs_new (${names}, user_id)
      select ${cols}, a.user_id from jobs j inner join alignments a on a.id = j.alignment_id`.execute(db);
    await sql`drop table jobs`.execute(db);
    await sql`alter table jobs_new rename to jobs`.execute(db);
    await db.schema.createIndex('jobs_status_idx').on('jobs').columns(['status', 'created_at']).execute();
    await db.schema.createIndex('jobs_alignment_idx').on('jobs').column('alignment_id').execute();
  }
  await db.schema.createIndex('jobs_user_idx').on('jobs').columns(['user_id', 'status']).execute();
  await db.schema.createIndex('jobs_model_idx').on('jobs').column('model_id').execute();

  await db.schema.alterTable('alignments').addColumn('model_id', 'text').execute();
  await db.schema.alterTable('alignments').addColumn('model_name', 'text').execute();
  await db.schema
    .alterTable('projects')
    .addColumn('use_adapted_model', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('realignments')
    .addColumn('whole', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('realignments').dropColumn('whole').execute();
  await db.schema.alterTable('projects').dropColumn('use_adapted_model').execute();
  await db.schema.alterTable('alignments').dropColumn('model_name').execute();
  await db.schema.alterTable('alignments').dropColumn('model_id').execute();
  await sql`delete from jobs where alignment_id is null`.execute(db);
  await db.schema.dropIndex('jobs_model_idx').execute();
  await db.schema.dropIndex('jobs_user_idx').execute();
  // SQLite cannot drop a column a foreign key names: there the two columns stay, unused
  if (isPostgres(db)) {
    await db.schema.alterTable('jobs').dropColumn('model_id').execute();
    await db.schema.alterTable('jobs').dropColumn('user_id').execute();
    await sql`alter table jobs alter column alignment_id set not null`.execute(db);
    await db.schema.dropTable('models').execute();
  }
}
