// The platform JSON (schema version 1): what the engine produces, the server stores and serves, the web
// shows and every export is made from. Times are seconds from the start of the audio.
import { z } from 'zod';
import { RESULT_SCHEMA_VERSION } from './result-version.ts';

export { RESULT_SCHEMA_VERSION };

export const PhoneTiming = z.object({
  phone: z
    .string()
    .describe(
      "IPA of the phone in the word's pronunciation (lexicon, the user's IPA, eSpeak NG or the Arabic rules)",
    ),
  model_phone: z
    .string()
    .describe("the acoustic model's label(s) placed for it (two labels, space-separated, for ɲ -> N Y)"),
  start: z.number(),
  end: z.number(),
  confidence: z.number().min(0).max(1).optional(),
  approximated: z
    .boolean()
    .optional()
    .describe(
      'true when the model had no phone of its own for this one: model_phone is the stand-in it scored (ʕ as HH, aː as AA), or empty when it placed nothing for it (ʔ on the English model, given the onset of the next phone)',
    ),
});
export type PhoneTiming = z.infer<typeof PhoneTiming>;

export const WordStatus = z.enum(['aligned', 'not_found']);

/** Where a word's pronunciation came from, in the order the aligner tries them. */
export const PRONUNCIATION_SOURCES = [
  'user_lexicon',
  'model_dictionary',
  'espeak',
  'rules',
  'ipa_input',
] as const;
export const PronunciationSource = z.enum(PRONUNCIATION_SOURCES);
export type PronunciationSource = z.infer<typeof PronunciationSource>;

export const WordTiming = z.object({
  index: z.number().int().describe('position of the word in the original transcript (0-based)'),
  word: z.string().describe('the word exactly as written in the transcript'),
  normalized: z.string().describe('the processed form the model aligned (may be several units joined)'),
  start: z.number().nullable().describe('null when status is not_found'),
  end: z.number().nullable(),
  duration: z.number().nullable(),
  confidence: z.number().min(0).max(1),
  status: WordStatus,
  phones: z.array(PhoneTiming),
  pronunciation_source: PronunciationSource.nullable()
    .optional()
    .describe('where the pronunciation came from; null when none was found; absent in older results'),
  char_start: z.number().int().describe('offset of the word in the original text (UTF-16 code units)'),
  char_end: z.number().int(),
  hand_corrected: z
    .literal(true)
    .optional()
    .describe(
      'present once a person retimed or relabelled the word or its phones in a revision; a re-aligned stretch never widens over it',
    ),
});
export type WordTiming = z.infer<typeof WordTiming>;

export const Segment = z.object({
  index: z.number().int(),
  text: z.string().describe('the original text of the segment'),
  start: z.number().nullable(),
  end: z.number().nullable(),
  word_start: z.number().int().describe('index of the first word'),
  word_end: z.number().int().describe('index one past the last word'),
  confidence: z.number().min(0).max(1),
});
export type Segment = z.infer<typeof Segment>;

export const Verdict = z.enum(['good', 'partial', 'mismatch', 'no_speech']);
export type Verdict = z.infer<typeof Verdict>;

/** Why a result is not simply good: each code has a user message in the web's three languages. */
export const QualityReasonCode = z.enum([
  'no_speech',
  'transcript_mismatch',
  'words_not_found',
  'low_confidence',
  'untranscribed_speech',
  'language_mismatch',
  'text_too_long_for_audio',
  'text_too_short_for_audio',
  'audio_clipping',
  'phones_approximated',
]);
export type QualityReasonCode = z.infer<typeof QualityReasonCode>;

export const QualityReason = z.object({
  code: QualityReasonCode,
  message: z.string().describe('the reason in English, for API users and exports'),
  value: z.number().optional().describe('the measured figure behind the reason'),
  words: z
    .array(z.number().int())
    .optional()
    .describe('words_not_found, low_confidence: the `index` of each word concerned'),
});
export type QualityReason = z.infer<typeof QualityReason>;

export const Quality = z.object({
  verdict: Verdict.describe(
    'good: the transcript fits the speech; partial: it fits with gaps; mismatch: it does not fit; no_speech: no speech in the audio',
  ),
  reasons: z
    .array(QualityReason)
    .describe(
      'what the verdict rests on; on a good verdict these are notes (good, with notes: a word not found, a few words that fit poorly) that did not lower it',
    ),
});
export type Quality = z.infer<typeof Quality>;

export const Metrics = z.object({
  coverage: z.number().min(0).max(1).describe('share of transcript words aligned (status aligned)'),
  mean_confidence: z.number().min(0).max(1),
  wer: z
    .number()
    .nullable()
    .describe(
      'estimated word error rate of the transcript against the speech (docs/formats.md), clamped to 1',
    ),
  cer: z.number().nullable().describe('the same estimate in letters'),
  wer_method: z.string().describe('how WER/CER were computed, or why they are absent'),
  phone_error_rate: z
    .number()
    .nullable()
    .describe(
      'diagnostic: phone error rate of a free phone-loop recognition against the transcript pronunciation',
    ),
  speech_seconds: z.number().describe('audio analysis: seconds of the audio that sound like speech'),
  untranscribed_speech_seconds: z
    .number()
    .describe('speech outside every aligned word (what the transcript seems to leave out)'),
  words_total: z.number().int(),
  words_aligned: z.number().int(),
  audio_duration: z.number(),
  processing_time: z.number().describe('seconds of wall time'),
  real_time_factor: z.number().describe('processing_time / audio_duration'),
});
export type Metrics = z.infer<typeof Metrics>;

export const RevisionAuthor = z.enum(['engine', 'user', 'realign']);
export type RevisionAuthor = z.infer<typeof RevisionAuthor>;

/** Which revision a stored or exported result is; absent on the engine's own first result. */
export const ResultRevision = z.object({
  number: z.number().int().min(1),
  author: RevisionAuthor,
  created_at: z.string(),
  hand_corrected: z.boolean().describe('true once any revision after the engine’s first result exists'),
});
export type ResultRevision = z.infer<typeof ResultRevision>;

export const AlignmentResult = z.object({
  schema_version: z.literal(RESULT_SCHEMA_VERSION),
  language: z.string().describe('ISO 639-3 code'),
  engine: z.object({
    backend: z.string().describe('hmm | mms'),
    model: z.string(),
    version: z.string(),
    precision: z.enum(['standard', 'high', 'ultra']),
    route: z.string().describe('pronunciation route, e.g. dictionary, espeak-ipa, arabic-rules'),
  }),
  audio: z.object({
    duration: z.number(),
    sample_rate: z.number().int(),
    channels: z.number().int().describe('of the source before downmixing'),
    format: z.string(),
    peak_dbfs: z.number().nullable(),
    clipping_ratio: z.number(),
    silence_ratio: z.number(),
  }),
  text: z.object({
    original: z.string(),
    processed: z.string().describe('the normalised text the model aligned'),
    input_kind: z.enum(['orthography', 'ipa']),
  }),
  words: z.array(WordTiming),
  segments: z.array(Segment),
  metrics: Metrics,
  detected_language: z
    .string()
    .nullable()
    .describe('ISO 639-3 code of the language the transcript is written in (franc-min), null if too short'),
  quality: Quality,
  warnings: z.array(z.string()),
  revision: ResultRevision.optional(),
});
export type AlignmentResult = z.infer<typeof AlignmentResult>;
