// Messages between the main thread and an alignment worker thread.
import type { AlignmentOptions, ProcessingStep } from '@tazamun/contracts/alignments';

export interface AlignThreadRequest {
  audioPath: string;
  text: string;
  language: string;
  options: AlignmentOptions;
  /** the owner's lexicon entries for the language, read when the job starts */
  lexicon?: { word: string; ipa: string }[];
  /** Re-align a stretch: only these seconds of the audio, times relative to `start`, no WER pass. */
  window?: { start: number; end: number };
}

export type AlignThreadMessage =
  | { type: 'progress'; step: ProcessingStep; percent: number }
  | { type: 'result'; json: string }
  | { type: 'audio_error'; code: string; message: string }
  | { type: 'engine_error'; message: string };
