// What the engine host (engine-host.ts) and its threads (engine-thread.ts) say to each other: a task in,
// progress and one outcome out. The server's job handlers and the CLI's batch send the same tasks.
import type { AlignmentOptions } from '@tazamun/contracts/alignment-options';
import type { LexiconEntry } from '../acoustic/backend.ts';
import type { ModelManifest as AdaptedModelManifest } from '../acoustic/hmm/adapt/model-dir.ts';

/** Align a recording (or a stretch of it) with its transcript. */
export interface AlignTask {
  kind: 'align';
  /** the recording, a file path */
  audio: string;
  text: string;
  /** ISO 639-3 or 639-1 code, or a BCP 47 tag */
  language: string;
  /** the request's options (contracts): the thread maps them to the engine's once (engineOptionsOf) */
  options: AlignmentOptions;
  /** the user's own pronunciations for the language */
  lexicon?: LexiconEntry[];
  /**
   * An adapted model's folder to align with instead of the language's own (engine.ts
   * `AlignOptions.model`, with its word-edge correction when it has one): a path the server resolved
   * on its own disk, never one taken from a request.
   * The result's `engine.model` names it; a thread keeps a few such models loaded (LRU,
   * acoustic/hmm/adapt/adapted-decoders.ts).
   */
  model?: string;
  /** only these seconds of the recording (re-aligning a stretch): times relative to `start`, no WER pass */
  window?: { start: number; end: number };
  /** the recognition pass for WER/CER (default true; always off for a window) */
  recognition?: boolean;
  /**
   * Test hook (engine-host.ts `EngineFaultHook`): the thread throws the engine's own kind of fault and
   * stays broken. Honoured only by a thread its host started with the hook enabled.
   */
  testFault?: boolean;
}

/** One recording of an adaptation corpus (acoustic/hmm/adapt/corpus.ts AdaptItem). */
export interface AdaptTaskItem {
  /** the recording, a file path */
  audio: string;
  text: string;
  inputKind?: 'orthography' | 'ipa';
  /** words a person placed (a corrected revision): ground truth, each aligned alone within its times */
  fixedWords?: { text: string; start: number; end: number }[];
}

/**
 * Adapt the language's model to a corpus (MAP re-estimation, Arabic phones of its own) and write the
 * adapted model's folder to `out`. The result's JSON is an AdaptTaskResult.
 */
export interface AdaptTask {
  kind: 'adapt';
  items: AdaptTaskItem[];
  /** ISO 639-3 or 639-1 code of the corpus */
  language: string;
  /** the model folder to write (replaced when it exists); its parent must exist */
  out: string;
  /** the user's own pronunciations for the language */
  lexicon?: LexiconEntry[];
}

/** What an adapt task's `result` JSON holds. */
export interface AdaptTaskResult {
  manifest: AdaptedModelManifest;
  /** recordings that could not be used, with why */
  skipped: { audio: string; reason: string }[];
}

/**
 * Every kind of work a host runs, each with its own `kind`; the thread's dispatch and the outcome's
 * classification are shared.
 */
export type EngineTask = AlignTask | AdaptTask;

/**
 * The stages a task reports: `analysis` until the audio and the models are in, then the search; an
 * adaptation reports `adaptation` (its passes over the corpus) throughout.
 */
export type EngineStage = 'analysis' | 'alignment' | 'adaptation';

export interface EngineProgress {
  stage: EngineStage;
  /** the share of the stage's work done, in [0, 1] */
  done: number;
}

/** How a task ended, as the thread classified it (outcome.ts) or the host saw it. */
export type EngineOutcome =
  | { type: 'result'; json: string }
  /** the audio cannot be used (the engine's AudioError code: not_found, silent, decode_failed, …) */
  | { type: 'audio_error'; code: string; message: string }
  /**
   * The transcript or options cannot be aligned, the user's doing: `bounds` with the contracts' job
   * bounds code and its numbers, `engine` with the engine's own input code (errors.ts).
   */
  | {
      type: 'input_error';
      source: 'bounds' | 'engine';
      code: string;
      params: Record<string, string | number>;
      message: string;
    }
  /** anything else: the engine failed, and its thread may be broken with it */
  | { type: 'engine_fault'; message: string; stack: string | null }
  /** the thread died (an error outside a task, or it exited) */
  | { type: 'crash'; message: string }
  /** the caller's signal aborted the task (cancel, time-out, shutdown) */
  | { type: 'aborted' };

/** Messages a thread posts: progress while it works, then the task's outcome. */
export type ThreadMessage =
  | ({ type: 'progress' } & EngineProgress)
  | Extract<EngineOutcome, { type: 'result' | 'audio_error' | 'input_error' | 'engine_fault' }>;

/** The thread's workerData. */
export interface ThreadData {
  /** started by a host with a test fault hook */
  testHooks: boolean;
  /** the thread's native-call guard chain (native-guard.ts NATIVE_GUARD_KEY) */
  tazamunNativeGuard: SharedArrayBuffer[];
}
