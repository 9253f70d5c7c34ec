// The options of one alignment, defined once: the request's shape (snake_case, as uploaded, as stored
// with a job and read back with this schema), the engine's (camelCase, what align() takes) and the one
// mapping between them. The upload route, the job threads and the CLI all go through engineOptionsOf();
// an option added here (an adapted model, say) reaches every caller by the compiler's say-so.
import { z } from 'zod';
import { PRECISIONS } from './limits.ts';

/** How the transcript is written: ordinary spelling, or IPA the user transcribed. */
export const INPUT_KINDS = ['orthography', 'ipa'] as const;
export const InputKind = z.enum(INPUT_KINDS);
export type InputKind = z.infer<typeof InputKind>;

/** The engine a request asks for; `auto` lets the engine choose per language. */
export const ENGINES = ['auto', 'hmm', 'mms'] as const;
export const EngineName = z.enum(ENGINES);
export type EngineName = z.infer<typeof EngineName>;

/** The acoustic back-ends an alignment can run on: what `auto` resolves to. */
export const BACKENDS = ['hmm', 'mms'] as const;
export type Backend = (typeof BACKENDS)[number];

/** An alignment's options as the API takes them and a job stores them (defaults filled in). */
export const AlignmentOptions = z.object({
  precision: z.enum(PRECISIONS).default('standard'),
  normalize: z.boolean().default(true),
  remove_fillers: z.boolean().default(false),
  numbers_to_words: z.boolean().default(true),
  engine: EngineName.default('auto'),
  input_kind: InputKind.default('orthography'),
});
export type AlignmentOptions = z.infer<typeof AlignmentOptions>;

export { engineOptionsOf } from './engine-options.ts';
export type { EngineOptions } from './engine-options.ts';

/**
 * A job's stored options (the `options` JSON column) read back through the schema: defaults for what an
 * older row lacks, and a thrown error rather than a silent cast for what is not options at all.
 */
export function parseStoredOptions(json: string | null): AlignmentOptions {
  return AlignmentOptions.parse(json ? JSON.parse(json) : {});
}
