// An alignment's options under the engine's names, and the one mapping from the request's names
// (alignment-options.ts holds their schema). Apart from the schema so that the engine's thread, which
// only maps options it is handed, does not load zod.
import type { AlignmentOptions, EngineName, InputKind } from './alignment-options.ts';
import type { Precision } from './limits.ts';

/** The same options under the engine's names (packages/aligner `AlignOptions` extends these). */
export interface EngineOptions {
  precision: Precision;
  normalize: boolean;
  numbersToWords: boolean;
  removeFillers: boolean;
  inputKind: InputKind;
  engine: EngineName;
}

/** The one request → engine mapping: every option under its engine name, nothing left behind. */
export function engineOptionsOf(options: AlignmentOptions): EngineOptions {
  return {
    precision: options.precision,
    normalize: options.normalize,
    numbersToWords: options.numbers_to_words,
    removeFillers: options.remove_fillers,
    inputKind: options.input_kind,
    engine: options.engine,
  };
}
