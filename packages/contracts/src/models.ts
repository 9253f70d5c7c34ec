// A project's adapted acoustic models (issue 31, ADR 0070): GET/POST /api/projects/{id}/models/, GET and
// DELETE /api/projects/{id}/models/{model_id}/. An adaptation re-estimates the language's model on the
// project's completed recordings (hand-corrected revisions as ground truth) in a background job; uploads
// to the project then align with the newest completed model of their language while the project's
// `use_adapted_model` is on.
import { z } from 'zod';

export const MODEL_STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled'] as const;
export const ModelStatus = z.enum(MODEL_STATUSES);
export type ModelStatus = z.infer<typeof ModelStatus>;

/** Limits of one adaptation (ADR 0070). */
export const MODEL_LIMITS = {
  /** seconds of the project's recordings one adaptation reads at most (the newest first beyond it) */
  maxCorpusSeconds: 2 * 3600,
  /** recordings one adaptation reads at most */
  maxRecordings: 500,
  /** the model storage limit's default per user (MODEL_STORAGE_LIMIT_MB) */
  defaultStorageMb: 200,
} as const;

export const ModelStart = z
  .object({
    language: z
      .string()
      .regex(/^[a-z]{2,3}$/)
      .describe("ISO 639-3 (or 639-1) code: the project's completed recordings in it form the corpus"),
  })
  .strict();
export type ModelStart = z.infer<typeof ModelStart>;

export const ModelFigures = z.object({
  base_model: z.string().describe('the model it was adapted from'),
  seconds: z.number().describe('seconds of the recordings it learnt from'),
  hours: z.number(),
  recordings: z.number().int().describe('recordings used'),
  skipped: z.number().int().describe('recordings of the corpus the engine could not use'),
  ground_truth_words: z
    .number()
    .int()
    .describe('words of hand-corrected revisions placed as ground truth (each aligned within its own times)'),
  speech_frames: z.number().int().describe('10 ms frames of aligned speech in the first pass'),
  iterations: z
    .array(z.object({ log_likelihood: z.number(), frames: z.number().int() }))
    .describe("each pass's mean log-likelihood per frame (nats) of the corpus's paths"),
  gaussians_moved: z.number().int(),
  gaussians: z.number().int(),
  phones_added: z
    .array(z.object({ ipa: z.string(), phone: z.string(), from: z.string() }))
    .describe('phones of its own the model gained (Arabic ʕ ħ q ʔ …), each cloned from its stand-in'),
  size_bytes: z.number().int().describe('bytes its files take in the store'),
});
export type ModelFigures = z.infer<typeof ModelFigures>;

export const AdaptedModel = z.object({
  id: z.string(),
  project_id: z.string(),
  language: z.string().describe('ISO 639-3 code'),
  name: z
    .string()
    .nullable()
    .describe(
      "the engine's name for it, as results aligned with it show in engine.model; null until completed",
    ),
  status: ModelStatus,
  progress: z.number().int().min(0).max(100),
  error: z.object({ code: z.string(), detail: z.string() }).nullable(),
  figures: ModelFigures.nullable().describe('once completed'),
  in_use: z.boolean().describe("true for the model the project's uploads of this language align with now"),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type AdaptedModel = z.infer<typeof AdaptedModel>;

export const ModelList = z.object({
  count: z.number().int(),
  results: z.array(AdaptedModel),
  storage: z
    .object({ used_bytes: z.number().int(), limit_bytes: z.number().int() })
    .describe("what the caller's models take, against their model storage limit"),
  min_corpus_seconds: z.number().describe('seconds of aligned speech an adaptation needs at least'),
});
export type ModelList = z.infer<typeof ModelList>;

/** POST /api/projects/{id}/models/{model_id}/rerun/: every completed recording re-aligned with the model. */
export const ModelRerunResponse = z.object({
  queued: z.number().int().describe('recordings re-aligned (one re-alignment each, as a new revision)'),
  busy: z
    .number()
    .int()
    .describe('recordings left out: a re-alignment of theirs is already waiting or running'),
});
export type ModelRerunResponse = z.infer<typeof ModelRerunResponse>;
