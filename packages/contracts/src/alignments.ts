// Alignment jobs and their results as the API shows them: upload options, the job's life (status and
// the spec's five processing steps), the stored figures of the spec's Alignment entity, and lists.
import { z } from 'zod';
import { AlignmentOptions } from './alignment-options.ts';
import { AlignmentResult, Verdict } from './alignment-result.ts';

export const ALIGNMENT_STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled'] as const;
export const AlignmentStatus = z.enum(ALIGNMENT_STATUSES);
export type AlignmentStatus = z.infer<typeof AlignmentStatus>;

/** The spec's five processing steps (section 4), in order. */
export const PROCESSING_STEPS = ['preparation', 'upload', 'analysis', 'alignment', 'finalisation'] as const;
export const ProcessingStep = z.enum(PROCESSING_STEPS);
export type ProcessingStep = z.infer<typeof ProcessingStep>;

/**
 * The one table of a job's progress: the percentage each step starts at, on the bar the API reports.
 * The alignment step spans from its start to ALIGNMENT_PROGRESS_END as the engine reports its share.
 */
export const STEP_PROGRESS: Readonly<Record<ProcessingStep, number>> = {
  preparation: 5,
  upload: 15,
  analysis: 25,
  alignment: 40,
  finalisation: 92,
};
export const ALIGNMENT_PROGRESS_END = 90;

/** The percentage for the engine's share `done` (0..1) of the alignment step. */
export function alignmentProgress(done: number): number {
  const start = STEP_PROGRESS.alignment;
  return Math.min(ALIGNMENT_PROGRESS_END, start + Math.floor(done * (ALIGNMENT_PROGRESS_END - start)));
}

/** ISO 639-3 as the API stores and answers it: exactly three lowercase letters (docs/decisions/0010). */
export const ISO_639_3 = /^[a-z]{3}$/;

/** What the upload takes for `language`: ISO 639-3 ("ara") or ISO 639-1 ("ar"); the server answers
 *  with the 639-3 code either way (docs/decisions/0022-language-codes-and-retry.md). */
export const LANGUAGE_CODE = /^[a-z]{2,3}$/;

/** Multipart text fields of POST /api/alignments/ besides `audio` and `text` / `text_file`. */
export const UploadOptions = z.object({
  language: z.string().regex(ISO_639_3),
  ...AlignmentOptions.shape,
  title: z.string().max(200).optional(),
  project_id: z.string().optional(),
});
export type UploadOptions = z.infer<typeof UploadOptions>;

export const JobError = z.object({
  code: z.string().describe('error catalogue code'),
  detail: z.string().describe('localised message (Accept-Language or ?lang=)'),
  quota_refunded: z.boolean(),
});

export const Progress = z.object({
  id: z.string(),
  status: AlignmentStatus,
  step: ProcessingStep.nullable().describe('current step while processing; last step reached otherwise'),
  progress: z.number().int().min(0).max(100),
  steps: z.array(z.object({ step: ProcessingStep, state: z.enum(['pending', 'active', 'done']) })),
  error: JobError.nullable(),
  updated_at: z.string(),
});
export type Progress = z.infer<typeof Progress>;

export const AlignmentSummary = z.object({
  id: z.string(),
  title: z.string(),
  file_name: z.string(),
  file_size: z.number().int(),
  language: z.string(),
  detected_language: z
    .string()
    .nullable()
    .describe('ISO 639-3 code of the language the transcript is written in (franc-min); null when too short'),
  verdict: Verdict.nullable().describe("the result's quality verdict once completed (result.quality)"),
  status: AlignmentStatus,
  step: ProcessingStep.nullable(),
  progress: z.number().int(),
  error: JobError.nullable(),
  options: AlignmentOptions,
  duration: z.number().nullable().describe('audio duration in seconds'),
  confidence: z.number().nullable().describe('mean word confidence in [0, 1]'),
  wer: z.number().nullable(),
  cer: z.number().nullable(),
  words: z.number().int().nullable().describe('number of words in the transcript'),
  coverage: z.number().nullable().describe('share of words aligned in [0, 1]'),
  alignment_time: z.number().nullable().describe('seconds of engine wall time'),
  processing_speed: z.number().nullable().describe('audio seconds aligned per second of processing (×RT)'),
  engine: z.string().nullable(),
  project_id: z.string().nullable(),
  adapted_model: z
    .string()
    .nullable()
    .describe(
      "the project's adapted model chosen for this upload (its name, as the result's engine.model shows it; kept when the model is deleted); null: the language's own model",
    ),
  shared: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  completed_at: z.string().nullable(),
});
export type AlignmentSummary = z.infer<typeof AlignmentSummary>;

export const AlignmentDetail = AlignmentSummary.extend({
  original_text: z.string(),
  processed_text: z.string().nullable(),
  result: AlignmentResult.nullable().describe('the full platform JSON once completed'),
  video: z
    .object({ status: z.enum(['queued', 'processing', 'completed', 'failed', 'cancelled']) })
    .nullable()
    .describe('the latest karaoke video render (details at GET …/video/); null when none was asked for'),
});
export type AlignmentDetail = z.infer<typeof AlignmentDetail>;

const boolParam = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .optional();
export { boolParam as BoolQueryParam };

export const AlignmentListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  language: z.string().regex(ISO_639_3).optional(),
  status: AlignmentStatus.optional(),
  from: z.string().date().or(z.string().datetime()).optional().describe('created on or after (ISO date)'),
  to: z.string().date().or(z.string().datetime()).optional().describe('created on or before (ISO date)'),
  q: z.string().max(200).optional().describe('search in title, file name and transcript'),
  project: z.string().optional().describe('a project id, or "none" for unassigned alignments'),
  ordering: z.enum(['-created_at', 'created_at', 'title', '-duration']).default('-created_at'),
});

export const Page = <T extends z.ZodType>(item: T) =>
  z.object({
    count: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
    next: z.number().int().nullable(),
    previous: z.number().int().nullable(),
    results: z.array(item),
  });

export const AlignmentListResponse = Page(AlignmentSummary);

export const AlignmentUpdate = z
  .object({
    title: z.string().trim().min(1).max(200),
    project_id: z.string().nullable(),
  })
  .partial()
  .strict();

/** A short-lived URL that streams one alignment's audio without an Authorization header (for <audio src>). */
export const AudioUrlResponse = z.object({
  url: z.string().describe('/api/alignments/{id}/audio/?sig=…&exp=…, relative to the API origin'),
  expires_at: z.string().describe('ISO 8601; the URL is refused (401 token_invalid) afterwards'),
});
export type AudioUrlResponse = z.infer<typeof AudioUrlResponse>;

export const StreamTicket = z.object({
  ticket: z.string().describe('opens GET /api/alignments/{id}/events/?ticket=… for this alignment only'),
  expires_at: z.string().describe('ISO 8601; a stream must be opened before then (it then stays open)'),
});
export type StreamTicket = z.infer<typeof StreamTicket>;

/** Query of the audio route: both present (signed URL) or both absent (Bearer owner). */
export const SignedAudioQuery = z.object({
  sig: z.string().max(128).optional(),
  exp: z.string().max(16).optional(),
});

export const ShareResponse = z.object({
  token: z.string(),
  url: z.string().describe('public read-only page'),
  api_url: z.string(),
  created_at: z.string(),
});

export const SharedAlignment = z.object({
  title: z.string(),
  language: z.string(),
  verdict: Verdict.nullable(),
  duration: z.number().nullable(),
  confidence: z.number().nullable(),
  wer: z.number().nullable(),
  cer: z.number().nullable(),
  words: z.number().int().nullable(),
  coverage: z.number().nullable(),
  original_text: z.string(),
  processed_text: z.string().nullable(),
  result: AlignmentResult,
  audio_url: z.string(),
  created_at: z.string(),
});

export const PublicStats = z.object({
  languages_supported: z.number().int(),
  alignments_completed: z.number().int(),
  hours_aligned: z.number().describe('sum of completed audio durations, in hours (2 decimals)'),
  words_aligned: z.number().int(),
});

export const LanguageEntry = z.object({
  code: z.string().describe('ISO 639-3'),
  iso1: z.string().nullable(),
  name: z.string(),
  script: z.string().nullable(),
  rtl: z.boolean(),
  routes: z.array(z.string()).describe('pronunciation routes, best first'),
  engines: z.array(z.string()).describe('engines that can align it on this server'),
  native_model: z.boolean().describe('an acoustic model trained on this language is installed'),
});
export const LanguagesResponse = z.object({
  count: z.number().int(),
  engines: z.array(z.object({ id: z.string(), available: z.boolean(), detail: z.string() })),
  results: z.array(LanguageEntry),
});
