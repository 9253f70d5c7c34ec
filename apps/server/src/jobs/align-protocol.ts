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
  /**
   * Test hook (thread-pool.ts `EngineFaultHook`): the thread throws the engine's own kind of fault and
   * stays broken, as the WASM decoder did in issue 11. Honoured only by a thread started with the hook
   * enabled in its workerData, which only a pool built with a hook does; the server entries never do.
   */
  testFault?: boolean;
}

export type AlignThreadMessage =
  | { type: 'progress'; step: ProcessingStep; percent: number }
  | { type: 'result'; json: string }
  /** the audio is the user's problem (the engine's AudioError) */
  | { type: 'audio_error'; code: string; message: string }
  /** the transcript or options are the user's problem: a catalogue code when the engine gave one */
  | { type: 'input_error'; code: string | null; params: Record<string, string | number>; message: string }
  /** anything else: the engine failed, and the thread may be broken with it */
  | { type: 'engine_fault'; message: string; stack: string | null };

/** Whether a thread was started with the fault hook (its workerData). */
export interface AlignThreadData {
  testHooks: boolean;
  /** the thread's native-call guard chain (@tazamun/aligner/native-guard) */
  tazamunNativeGuard: SharedArrayBuffer[];
}
