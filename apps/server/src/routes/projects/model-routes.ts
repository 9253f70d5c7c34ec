// /api/projects/{id}/models/: a project's adapted acoustic models (ADR 0070). List them with their
// figures, start an adaptation of one language (a background job, no quota unit, one at a time per
// user), follow one, delete one. Only the project's owner sees them; another user's project or model is
// "not found".
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MIN_CORPUS_SECONDS } from '@tazamun/aligner/adapt';
import type { ModelManifest } from '@tazamun/aligner/adapt';
import { errorMessage } from '@tazamun/contracts/errors';
import type { ErrorCode } from '@tazamun/contracts/errors';
import type { UiLanguage } from '@tazamun/contracts/limits';
import { AdaptedModel, ModelList, ModelRerunResponse, ModelStart } from '@tazamun/contracts/models';
import type { ModelFigures } from '@tazamun/contracts/models';
import { deleteModel, rerunProject, startAdaptation } from '../../commands/adaptation.ts';
import { findProjectModel, listProjectModels, modelBytes, modelForUpload } from '../../db/models.ts';
import { findOwnedProject } from '../../db/projects.ts';
import type { ModelRow, ProjectRow } from '../../db/schema.ts';
import { createError } from '../../errors.ts';
import { auth, requireApproved } from '../../plugins/auth-guard.ts';
import { requestLanguage } from '../../plugins/language.ts';
import { IdParams } from '../alignments/alignment-routes.ts';

const ModelParams = IdParams.extend({ model: z.string().min(1).max(64) });

type StoredManifest = ModelManifest & { skipped?: number };

function figures(row: ModelRow): ModelFigures | null {
  if (row.status !== 'completed' || !row.manifest) return null;
  const m = JSON.parse(row.manifest) as StoredManifest;
  return {
    base_model: m.base,
    seconds: m.corpus.seconds,
    hours: m.corpus.hours,
    recordings: m.corpus.recordings,
    skipped: m.skipped ?? 0,
    ground_truth_words: m.corpus.groundTruthWords,
    speech_frames: m.corpus.frames,
    iterations: m.iterations.map((i) => ({ log_likelihood: i.logLikelihood, frames: i.frames })),
    gaussians_moved: m.moved,
    gaussians: m.gaussians,
    phones_added: m.extraPhones.map((e) => ({ ipa: e.ipa, phone: e.phone, from: e.from })),
    size_bytes: Number(row.size_bytes),
  };
}

export function presentModel(row: ModelRow, lang: UiLanguage, inUse: boolean): AdaptedModel {
  const params = row.error_params ? (JSON.parse(row.error_params) as Record<string, string | number>) : {};
  return {
    id: row.id,
    project_id: row.project_id,
    language: row.language,
    name: row.name,
    status: row.status,
    progress: Number(row.progress),
    error:
      row.status === 'failed' && row.error_code
        ? {
            code: row.error_code,
            detail: errorMessage(row.error_code as ErrorCode, lang, { reason: '', ...params }),
          }
        : null,
    figures: figures(row),
    in_use: inUse,
    created_at: row.created_at,
    completed_at: row.completed_at,
  };
}

export const modelRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const db = deps.db;

  const owned = async (userId: string, id: string): Promise<ProjectRow> => {
    const p = await findOwnedProject(db, userId, id);
    if (!p) throw createError('not_found');
    return p;
  };
  /** The models the project's uploads use now, one per language. */
  const inUse = async (p: ProjectRow, languages: string[]): Promise<Set<string>> => {
    const ids = new Set<string>();
    for (const l of new Set(languages)) {
      const m = await modelForUpload(db, p.user_id, p.id, l);
      if (m) ids.add(m.id);
    }
    return ids;
  };

  app.get(
    '/:id/models/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['projects'],
        summary: 'The project’s adapted models with their figures, and the caller’s model storage',
        params: IdParams,
        response: { 200: ModelList },
      },
    },
    async (request) => {
      const p = await owned(auth(request).user.id, request.params.id);
      const rows = await listProjectModels(db, p.user_id, p.id);
      const used = await inUse(
        p,
        rows.map((r) => r.language),
      );
      const lang = requestLanguage(request);
      return {
        count: rows.length,
        results: rows.map((r) => presentModel(r, lang, used.has(r.id))),
        storage: {
          used_bytes: await modelBytes(db, p.user_id),
          limit_bytes: Math.floor(app.jobs.config.modelStorageLimitBytes),
        },
        min_corpus_seconds: MIN_CORPUS_SECONDS,
      };
    },
  );

  app.post(
    '/:id/models/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['projects'],
        summary: 'Adapt a model to the project’s completed recordings of one language (a background job)',
        description:
          'The project’s completed recordings in the language form the corpus; a recording whose latest ' +
          'revision was corrected by hand is ground truth. No quota unit is used. Refused with ' +
          '`corpus_too_small` (422, with `seconds` and `needed`) when the recordings hold too little speech, ' +
          '`adaptation_running` (409) while another adaptation of the caller waits or runs, ' +
          '`model_storage_full` (409) when the caller’s models leave no room under MODEL_STORAGE_LIMIT_MB, ' +
          '`adaptation_unsupported` (400) for a language only MMS reads. Follow it with GET …/models/{model}/.',
        params: IdParams,
        body: ModelStart,
        response: { 202: AdaptedModel },
      },
    },
    async (request, reply) => {
      const p = await owned(auth(request).user.id, request.params.id);
      const row = await startAdaptation(app, p, request.body.language);
      return reply.code(202).send(presentModel(row, requestLanguage(request), false));
    },
  );

  app.get(
    '/:id/models/:model/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['projects'],
        summary: 'One adapted model: its adaptation’s status and progress, its figures once completed',
        params: ModelParams,
        response: { 200: AdaptedModel },
      },
    },
    async (request) => {
      const p = await owned(auth(request).user.id, request.params.id);
      const row = await findProjectModel(db, p.user_id, p.id, request.params.model);
      if (!row) throw createError('not_found');
      const used = await inUse(p, [row.language]);
      return presentModel(row, requestLanguage(request), used.has(row.id));
    },
  );

  app.post(
    '/:id/models/:model/rerun/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['projects'],
        summary: 'Re-align every completed recording of the model’s language in the project with the model',
        description:
          'Each recording is aligned again whole, as a new revision (author `realign`) that keeps the words a ' +
          'person corrected; follow each with GET /api/alignments/{id}/realign/. Recordings with a ' +
          're-alignment waiting or running are left out (`busy`). No quota unit is used. ' +
          '409 `model_not_ready` for a model not completed.',
        params: ModelParams,
        response: { 202: ModelRerunResponse },
      },
    },
    async (request, reply) => {
      const p = await owned(auth(request).user.id, request.params.id);
      const row = await findProjectModel(db, p.user_id, p.id, request.params.model);
      if (!row) throw createError('not_found');
      return reply.code(202).send(await rerunProject(app, row));
    },
  );

  app.delete(
    '/:id/models/:model/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['projects'],
        summary: 'Delete an adapted model (its adaptation is cancelled if it still runs)',
        description:
          'Its files and rows go; alignments made with it keep its name in their result’s engine.model and ' +
          'in `adapted_model`. Uploads queued for it align with the language’s own model.',
        params: ModelParams,
      },
    },
    async (request, reply) => {
      const p = await owned(auth(request).user.id, request.params.id);
      const row = await findProjectModel(db, p.user_id, p.id, request.params.model);
      if (!row) throw createError('not_found');
      await deleteModel(app, row);
      return reply.code(204).send();
    },
  );
};
