// Adapted models (ADR 0070): starting the adaptation of a project's model, and deleting a model.
// Starting checks, before anything is written: the language (only the built-in hmm aligner's models
// can be adapted), one adaptation at a time per user, enough speech in the project's completed
// recordings of that language, and room under the user's model storage limit; then the model row and
// its job go in one transaction. An adaptation takes no quota unit.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { MAX_REVISIONS } from '@tazamun/contracts/revisions';
import { setAlignmentModel } from '../db/alignments.ts';
import { activeRealignment, insertRealignment } from '../db/revisions.ts';
import { latestRevisionNumber } from '../revisions/revision-store.ts';
import { MIN_CORPUS_SECONDS } from '@tazamun/aligner/adapt';
import { planAlignment } from '@tazamun/aligner/engine';
import type { Db } from '../db/database.ts';
import {
  activeAdaptations,
  adaptationCorpus,
  deleteModelRow,
  insertModel,
  lastModelBytes,
  modelBytes,
  modelJob,
  projectModels,
} from '../db/models.ts';
import type { ModelRow, ProjectRow } from '../db/schema.ts';
import { createError } from '../errors.ts';
import { jobTimeoutMs } from '../jobs/job-config.ts';
import { removeModelFiles } from '../storage/model-files.ts';

const MB = 1024 * 1024;
/** Passes over the corpus an adaptation makes at most (the engine's two re-estimations, and one more). */
export const ADAPTATION_PASSES = 3;
const mb = (bytes: number): number => Math.round((bytes / MB) * 10) / 10;

/** The ISO 639-3 code a model of `code` is adapted for, or 400 adaptation_unsupported. */
export function adaptationLanguage(code: string): string {
  try {
    return planAlignment(code, { engine: 'hmm' }).language.iso3;
  } catch {
    throw createError('adaptation_unsupported', {}, { language: ['This value is invalid.'] });
  }
}

/**
 * What a new model is expected to take: the size of the user's last one, else this installation's
 * estimate (an adapted English model takes 14 MB, one with Arabic phones a little more: ADR 0070).
 */
export const FIRST_MODEL_ESTIMATE_BYTES = 16 * MB;

/** 409 model_storage_full when the user's models leave no room for one more. */
export async function assertModelRoom(db: Db, userId: string, limitBytes: number): Promise<void> {
  const used = await modelBytes(db, userId);
  const needed = (await lastModelBytes(db, userId)) ?? FIRST_MODEL_ESTIMATE_BYTES;
  if (used + needed <= limitBytes) return;
  throw createError(
    'model_storage_full',
    { used: mb(used), limit: mb(limitBytes), needed: mb(needed) },
    { used_bytes: used, limit_bytes: limitBytes, needed_bytes: needed },
  );
}

export async function startAdaptation(
  app: FastifyInstance,
  project: ProjectRow,
  code: string,
): Promise<ModelRow> {
  const { db } = app.deps;
  const userId = project.user_id;
  const language = adaptationLanguage(code);
  if ((await activeAdaptations(db, userId)) > 0) throw createError('adaptation_running');
  const corpus = await adaptationCorpus(db, userId, project.id, language);
  const seconds = corpus.reduce((a, r) => a + (r.duration ?? 0), 0);
  // the recordings' length bounds the speech the engine can find in them: too short is refused now
  if (seconds < MIN_CORPUS_SECONDS) {
    const figures = { seconds: Math.floor(seconds), needed: MIN_CORPUS_SECONDS };
    throw createError('corpus_too_small', figures, figures);
  }
  await assertModelRoom(db, userId, app.jobs.config.modelStorageLimitBytes);
  const nowIso = app.deps.clock.now().toISOString();
  const model = await db.transaction().execute(async (trx) => {
    // one at a time, also against a second request racing this one: the check again inside
    if ((await activeAdaptations(trx, userId)) > 0) throw createError('adaptation_running');
    const m = await insertModel(trx, { userId, projectId: project.id, language, nowIso });
    await app.jobs.queue.enqueue(trx, {
      kind: 'adapt',
      userId,
      alignmentId: null,
      modelId: m.id,
      // every pass aligns the whole corpus again (without the recognition pass)
      timeoutMs: jobTimeoutMs(app.jobs.config, seconds * ADAPTATION_PASSES),
    });
    return m;
  });
  app.jobs.queue.wake();
  return model;
}

/**
 * Deletes a model: its adaptation cancelled when it still runs, then its row (and its job's, by the
 * foreign key; the alignments that named it keep the name), then its files. An alignment running with
 * it has its copy loaded already; one queued after it aligns with the language's own model.
 */
export async function deleteModel(app: FastifyInstance, model: ModelRow): Promise<void> {
  const { db, files } = app.deps;
  if (model.status === 'queued' || model.status === 'processing') {
    const job = await modelJob(db, model.id);
    if (job && (job.status === 'queued' || job.status === 'processing')) await app.jobs.queue.cancel(job.id);
  }
  await deleteModelRow(db, model.id);
  await removeModelFiles(files, model.user_id, model.id);
}

/**
 * A project re-run with its model: every completed recording of the model's language re-aligned whole
 * with it, each as a new revision that keeps the words a person corrected (jobs/realign-job.ts). The
 * recordings then name the model (their later stretches use it too). A recording with a re-alignment
 * waiting or running, or at its revision limit, is left out. No quota unit is used.
 */
export async function rerunProject(
  app: FastifyInstance,
  model: ModelRow,
): Promise<{ queued: number; busy: number }> {
  const { db } = app.deps;
  if (model.status !== 'completed' || !model.name)
    throw createError('model_not_ready', { status: model.status });
  const rows = await db
    .selectFrom('alignments')
    .selectAll()
    .where('project_id', '=', model.project_id)
    .where('user_id', '=', model.user_id)
    .where('language', '=', model.language)
    .where('status', '=', 'completed')
    .orderBy('created_at')
    .execute();
  let queued = 0;
  let busy = 0;
  for (const row of rows) {
    const latest = await latestRevisionNumber(db, row.id);
    if ((await activeRealignment(db, row.id)) || latest >= MAX_REVISIONS) {
      busy += 1;
      continue;
    }
    const nowIso = app.deps.clock.now().toISOString();
    await db.transaction().execute(async (trx) => {
      await setAlignmentModel(trx, row.id, { id: model.id, name: model.name! }, nowIso);
      const jobId = await app.jobs.queue.enqueue(trx, {
        kind: 'realign',
        userId: row.user_id,
        alignmentId: row.id,
        timeoutMs: jobTimeoutMs(app.jobs.config, row.duration ?? 0),
      });
      await insertRealignment(trx, {
        id: randomUUID(),
        alignment_id: row.id,
        job_id: jobId,
        status: 'queued',
        start_time: 0,
        end_time: row.duration ?? 0,
        text: null,
        base_revision: latest,
        whole: 1,
        revision: null,
        error_code: null,
        error_params: null,
        created_at: nowIso,
        updated_at: nowIso,
        completed_at: null,
      });
    });
    queued += 1;
  }
  app.jobs.queue.wake();
  return { queued, busy };
}

/** A project's models, before the project itself goes. */
export async function deleteProjectModels(app: FastifyInstance, projectId: string): Promise<void> {
  for (const m of await projectModels(app.deps.db, projectId)) await deleteModel(app, m);
}
