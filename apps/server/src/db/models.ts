// The adapted models repository (ADR 0070): a project's models, the state of their adaptation jobs, what
// each takes in the store, and the model an upload to the project aligns with. Every lookup a route
// makes is scoped by the owner, so another user's model is "not found".
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { MODEL_LIMITS } from '@tazamun/contracts/models';
import type { Db } from './database.ts';
import type { AlignmentRow, ModelRow, ModelsTable } from './schema.ts';

export function findModel(db: Db, id: string): Promise<ModelRow | undefined> {
  return db.selectFrom('models').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findProjectModel(
  db: Db,
  userId: string,
  projectId: string,
  id: string,
): Promise<ModelRow | undefined> {
  return db
    .selectFrom('models')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The project's models, newest first. */
export function listProjectModels(db: Db, userId: string, projectId: string): Promise<ModelRow[]> {
  return db
    .selectFrom('models')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** Every model of a project (its deletion removes their files). */
export function projectModels(db: Db, projectId: string): Promise<ModelRow[]> {
  return db.selectFrom('models').selectAll().where('project_id', '=', projectId).execute();
}

/**
 * The model uploads to the project align with: its newest completed model of the language, while the
 * project's `use_adapted_model` is on; undefined otherwise.
 */
export function modelForUpload(
  db: Db,
  userId: string,
  projectId: string,
  language: string,
): Promise<Pick<ModelRow, 'id' | 'name'> | undefined> {
  return db
    .selectFrom('models')
    .innerJoin('projects', 'projects.id', 'models.project_id')
    .select(['models.id', 'models.name'])
    .where('models.project_id', '=', projectId)
    .where('models.user_id', '=', userId)
    .where('models.language', '=', language)
    .where('models.status', '=', 'completed')
    .where('projects.use_adapted_model', '=', 1)
    .orderBy('models.completed_at', 'desc')
    .orderBy('models.id')
    .limit(1)
    .executeTakeFirst();
}

/** Bytes the user's completed models take in the store (the per-user model storage limit). */
export async function modelBytes(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('models')
    .select(sql<number>`coalesce(sum(size_bytes), 0)`.as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The size of the user's most recent completed model: what one more is expected to take. */
export async function lastModelBytes(db: Db, userId: string): Promise<number | null> {
  const row = await db
    .selectFrom('models')
    .select('size_bytes')
    .where('user_id', '=', userId)
    .where('status', '=', 'completed')
    .orderBy('completed_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.size_bytes) : null;
}

/** The user's adaptations waiting or running (at most one at a time). */
export async function activeAdaptations(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('models')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('status', 'in', ['queued', 'processing'])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertModel(
  db: Db,
  fields: { userId: string; projectId: string; language: string; nowIso: string },
): Promise<ModelRow> {
  return db
    .insertInto('models')
    .values({
      id: randomUUID(),
      user_id: fields.userId,
      project_id: fields.projectId,
      language: fields.language,
      status: 'queued',
      progress: 0,
      name: null,
      manifest: null,
      size_bytes: 0,
      error_code: null,
      error_params: null,
      created_at: fields.nowIso,
      updated_at: fields.nowIso,
      completed_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

type ModelChange = Partial<
  Pick<
    ModelsTable,
    | 'status'
    | 'progress'
    | 'name'
    | 'manifest'
    | 'size_bytes'
    | 'error_code'
    | 'error_params'
    | 'completed_at'
    | 'updated_at'
  >
>;

/** Updates the model row (its job's state); `onlyIf` limits it to rows in those states. */
export async function updateModel(
  db: Db,
  id: string,
  change: ModelChange,
  onlyIf?: ModelRow['status'][],
): Promise<boolean> {
  let q = db.updateTable('models').set(change).where('id', '=', id);
  if (onlyIf) q = q.where('status', 'in', onlyIf);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The model's row goes (its job with it, by the foreign key); the alignments that named it keep the name. */
export async function deleteModelRow(db: Db, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('alignments').set({ model_id: null }).where('model_id', '=', id).execute();
    await trx.deleteFrom('models').where('id', '=', id).execute();
  });
}

/** The job of a model's adaptation (its latest), for a cancel. */
export function modelJob(db: Db, modelId: string) {
  return db
    .selectFrom('jobs')
    .select(['id', 'status'])
    .where('model_id', '=', modelId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * What one adaptation of a project's language reads: its completed alignments in that language, the
 * newest first, within MODEL_LIMITS (recordings and seconds).
 */
export async function adaptationCorpus(
  db: Db,
  userId: string,
  projectId: string,
  language: string,
): Promise<AlignmentRow[]> {
  const rows = await db
    .selectFrom('alignments')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('language', '=', language)
    .where('status', '=', 'completed')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(MODEL_LIMITS.maxRecordings)
    .execute();
  const out: AlignmentRow[] = [];
  let seconds = 0;
  for (const r of rows) {
    const d = r.duration ?? 0;
    if (out.length > 0 && seconds + d > MODEL_LIMITS.maxCorpusSeconds) break;
    out.push(r);
    seconds += d;
  }
  return out;
}
