// The one translation from the platform's request options (contracts, snake_case, as uploaded and stored
// with a job) to the engine's own options. The server's job thread and anything else that runs a stored
// job call this; nothing maps the fields by hand.
import type { AlignmentOptions } from '@tazamun/contracts/alignments';
import type { AlignOptions } from './engine.ts';

/** What a caller adds beside the stored options: the language, lexicon, source audio, progress hook. */
export type AlignContext = Omit<
  AlignOptions,
  'precision' | 'normalize' | 'numbersToWords' | 'removeFillers' | 'inputKind' | 'engine'
>;

export function alignOptionsFromRequest(options: AlignmentOptions, context: AlignContext): AlignOptions {
  return {
    ...context,
    precision: options.precision,
    normalize: options.normalize,
    numbersToWords: options.numbers_to_words,
    removeFillers: options.remove_fillers,
    inputKind: options.input_kind,
    engine: options.engine,
  };
}
