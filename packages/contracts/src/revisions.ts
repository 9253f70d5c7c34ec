// Hand corrections and re-alignments of a completed alignment (issue 14). Revision 1 is the engine's
// result; every save and every re-aligned stretch is a new revision on top of the latest one.
import { z } from 'zod';
import { AlignmentResult, RevisionAuthor } from './alignment-result.ts';

/** Longest stretch one re-alignment may cover: long enough for a sentence or two, short enough to stay
 *  a small job (it uses no quota unit, ADR 0023). */
export const MAX_REALIGN_SECONDS = 60;

/**
 * The most revisions one alignment keeps (the engine's result is revision 1): a save past it is refused
 * with 409 revision_limit. Saves are rate-limited per user as well (REVISION_SAVES_PER_MINUTE).
 */
export const MAX_REVISIONS = 500;
export const REVISION_SAVES_PER_MINUTE = 30;

/** No recording is a week long: a larger time is a mistake (or a probe), refused as a field error. */
export const MAX_TIME_SECONDS = 7 * 86_400;

const Seconds = z.number().finite().min(0).max(MAX_TIME_SECONDS);
const Label = z.string().trim().min(1).max(200);

export const WordEdit = z
  .object({
    index: z.number().int().min(0).describe('the word’s `index` in the result'),
    start: Seconds.optional(),
    end: Seconds.optional(),
    word: Label.optional().describe('a corrected label'),
  })
  .strict();
export type WordEdit = z.infer<typeof WordEdit>;

export const PhoneEdit = z
  .object({
    word_index: z.number().int().min(0),
    index: z.number().int().min(0).describe('position of the phone inside its word (0-based)'),
    start: Seconds.optional(),
    end: Seconds.optional(),
    phone: z.string().trim().min(1).max(32).optional(),
  })
  .strict();
export type PhoneEdit = z.infer<typeof PhoneEdit>;

/** A word's whole phone tier, for splits and merges (the number of phones changes). */
export const WordPhones = z
  .object({
    word_index: z.number().int().min(0),
    phones: z
      .array(
        z
          .object({
            phone: z.string().trim().min(1).max(32).describe('IPA label'),
            model_phone: z
              .string()
              .trim()
              .max(64)
              .optional()
              .describe(
                "the acoustic model's label; defaults to the IPA label (empty: the model placed nothing for it, as for ʔ on the English model)",
              ),
            approximated: z
              .boolean()
              .optional()
              .describe('the model had no phone of its own for it (as in the result)'),
            start: Seconds,
            end: Seconds,
          })
          .strict(),
      )
      .min(1)
      .max(200),
  })
  .strict();
export type WordPhones = z.infer<typeof WordPhones>;

export const RevisionCreate = z
  .object({
    base_revision: z.number().int().min(1).describe('the revision the edits were made on'),
    words: z.array(WordEdit).max(20_000).optional(),
    phones: z.array(PhoneEdit).max(100_000).optional(),
    word_phones: z.array(WordPhones).max(20_000).optional(),
  })
  .strict();
export type RevisionCreate = z.infer<typeof RevisionCreate>;

export const RevisionSummary = z.object({
  revision: z.number().int().min(1),
  created_at: z.string(),
  author: RevisionAuthor,
  changed_words: z.array(z.number().int()).describe('indices of the words this revision changed'),
});
export type RevisionSummary = z.infer<typeof RevisionSummary>;

export const RevisionList = z.array(RevisionSummary);
export type RevisionList = z.infer<typeof RevisionList>;

export const RevisionCreated = RevisionSummary.extend({ result: AlignmentResult });
export type RevisionCreated = z.infer<typeof RevisionCreated>;

/** `?revision=N` on the detail and the exports; the latest when absent. */
export const RevisionQuery = z.object({ revision: z.coerce.number().int().min(1).optional() });

export const RealignRequest = z
  .object({
    start: Seconds,
    end: Seconds,
    text: z.string().max(5000).optional().describe('corrected text for the stretch; its words otherwise'),
  })
  .strict();
export type RealignRequest = z.infer<typeof RealignRequest>;

export const RealignStatus = z.object({
  id: z.string(),
  status: z.enum(['queued', 'processing', 'completed', 'failed', 'cancelled']),
  start: z.number(),
  end: z.number(),
  text: z.string().nullable(),
  base_revision: z.number().int(),
  revision: z.number().int().nullable().describe('the revision it made, once completed'),
  error: z.object({ code: z.string(), detail: z.string() }).nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type RealignStatus = z.infer<typeof RealignStatus>;
