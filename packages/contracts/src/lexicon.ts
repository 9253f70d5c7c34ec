// The personal lexicon: the user's own pronunciations (IPA), which the aligner uses before the model's
// dictionary and eSpeak, and the pronunciation preview of the upload studio.
import { z } from 'zod';
import { ISO_639_3 } from './alignments.ts';
import { PRONUNCIATION_SOURCES } from './alignment-result.ts';

export const LEXICON_MAX_ENTRIES = 5000;
export const LEXICON_IMPORT_MAX_BYTES = 1024 * 1024;

export const LexiconEntryCreate = z
  .object({
    language: z.string().regex(ISO_639_3),
    word: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .refine((w) => !/\s/.test(w), 'one word, without spaces'),
    ipa: z.string().trim().min(1).max(200),
  })
  .strict();
export type LexiconEntryCreate = z.infer<typeof LexiconEntryCreate>;

export const LexiconEntry = z.object({
  id: z.string(),
  language: z.string(),
  word: z.string(),
  ipa: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type LexiconEntry = z.infer<typeof LexiconEntry>;

export const LexiconQuery = z.object({ language: z.string().regex(ISO_639_3).optional() });

export const LexiconList = z.object({ count: z.number().int(), results: z.array(LexiconEntry) });

/** Skipped lines an import reports one by one; past it, only their count (`skipped_count`). */
export const LEXICON_IMPORT_REPORT_MAX = 100;

export const LexiconImportResult = z.object({
  imported: z.number().int().describe('entries added or replaced'),
  skipped: z
    .array(z.object({ line: z.number().int(), reason: z.string() }))
    .describe(`the first ${LEXICON_IMPORT_REPORT_MAX} lines not imported, and why`),
  skipped_count: z.number().int().describe('every line not imported (comments and blank lines aside)'),
});

export const PronunciationPreviewRequest = z
  .object({
    language: z.string().regex(ISO_639_3),
    text: z.string().min(1).max(20_000),
    input_kind: z.enum(['orthography', 'ipa']).default('orthography'),
    all_words: z
      .boolean()
      .default(false)
      .describe(
        'every distinct word with its source and IPA (the lexicon page); default: only the words pronounced by rule or by eSpeak, the ones worth checking',
      ),
    ignore_lexicon: z
      .boolean()
      .default(false)
      .describe("as if the caller's lexicon were empty: what the aligner would use without their entries"),
  })
  .strict();

export const PronunciationPreviewWord = z.object({
  word: z.string().describe('the token as the aligner sees it (normalised)'),
  source: z.enum(PRONUNCIATION_SOURCES),
  ipa: z.string().describe('the pronunciation the aligner would use, phones separated by spaces'),
});
export type PronunciationPreviewWord = z.infer<typeof PronunciationPreviewWord>;

export const PronunciationPreview = z.object({
  language: z.string(),
  /** the distinct words pronounced by rule or by eSpeak (the ones worth checking), or all with all_words */
  words: z.array(PronunciationPreviewWord),
});
export type PronunciationPreview = z.infer<typeof PronunciationPreview>;
