// The contract between the engine and an acoustic back-end. A back-end turns the transcript's model tokens
// into units it can score (pronunciations in its own unit set) and places those units in the audio. The
// engine owns everything else: decoding, text processing, long-audio windowing, scores and the result.

import type { PronunciationSource } from '@tazamun/contracts/alignment-result';

export type Precision = 'standard' | 'high' | 'ultra';

export interface Unit {
  /** index into the normaliser's token list */
  tokenIndex: number;
  wordIndex: number;
  text: string;
  /** alternative pronunciations, each a list of the model's phone labels */
  prons: string[][];
  /** instead of whole pronunciations: slots of alternative phone sequences ([] = the slot may be silent) */
  lattice?: string[][][];
  /** the IPA each pronunciation was made from (prons[i] <- ipa[i]); absent for dictionary words */
  ipa?: string[];
  /** the IPA of each lattice alternative (lattice[s][a] <- latticeIpa[s][a]) */
  latticeIpa?: string[][];
  /** where the pronunciation came from (absent when there is none) */
  source?: PronunciationSource;
}

/** A user's own pronunciation: consulted before the model's dictionary and eSpeak. */
export interface LexiconEntry {
  word: string;
  ipa: string;
}

/** The lexicon as the back-ends look words up: lower-cased NFC word -> IPA. */
export function lexiconMap(entries: readonly LexiconEntry[] = []): Map<string, string> {
  return new Map(entries.map((e) => [e.word.normalize('NFC').toLowerCase(), e.ipa]));
}

export interface PhoneSpan {
  phone: string;
  start: number;
  end: number;
  confidence: number;
}

export interface UnitSpan {
  unit: number;
  start: number;
  end: number;
  confidence: number;
  phones: PhoneSpan[];
}

export interface WindowRequest {
  samples: Float32Array;
  /** seconds added to every time returned (position of the window in the file) */
  offset: number;
  units: Unit[];
  precision: Precision;
  /** the window may end before the last unit (long audio) */
  openEnd: boolean;
  /** units may be absent from the audio and extra speech may be present */
  garbage: boolean;
}

export interface Recognition {
  wer: number | null;
  cer: number | null;
  method: string;
  /** raw counts, so recognition over windows of a long file can be pooled */
  counts?: { phoneErrors: number; phones: number; wrongWords: number; words: number };
  /** per transcript word (wordIndex): phones of its pronunciation the pass recognised, out of n */
  perWord?: Map<number, { hit: number; n: number }>;
}

export interface AcousticBackend {
  readonly name: 'hmm' | 'mms';
  readonly model: string;
  readonly version: string;
  /** pronunciation route actually used for the last prepare() call, e.g. dictionary+espeak-ipa */
  pronounce(
    tokens: { text: string; wordIndex: number }[],
    lang: string,
    inputKind: 'orthography' | 'ipa',
    lexicon?: ReadonlyMap<string, string>,
  ): Promise<{ units: Unit[]; route: string; warnings: string[] }>;
  /** Spans for the units found in the window, in order; units not found are absent. */
  alignWindow(req: WindowRequest): UnitSpan[];
  /** Word-level spans only (no phones), quicker and sturdier: the first pass over long recordings. */
  segmentWindow?(req: WindowRequest): UnitSpan[];
  /** An independent recognition pass scored against the transcript (see docs/engines.md). */
  recognise(samples: Float32Array, units: Unit[]): Recognition;
}
