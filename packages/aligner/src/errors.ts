// The engine's errors. Every failure leaves the engine as an EngineError with a stable code, so a caller
// (the server's job runner, the CLI batch) can tell a failure the user's input caused, which is final and
// must be explained to the user, from a fault of the engine, which calls for a fresh decoder or thread and
// one retry. The message is English for logs and the CLI; the server maps the code to its own catalogue.

/** Failures caused by what the user sent: retrying the same input fails the same way. */
export type EngineInputErrorCode =
  /** more transcript than the audio can hold (words or characters per second of audio) */
  | 'transcript_too_long'
  /** the search graph for one window would need more states or arcs than the engine allows */
  | 'grammar_too_large'
  /** not an ISO 639 code the requested engine and input kind accept */
  | 'unknown_language'
  /** the engine needs a model that is not installed (`tazamun models pull ...`) */
  | 'model_not_installed'
  /** an option or a combination of options the engine cannot honour */
  | 'unsupported_option'
  /** no word of the transcript can be pronounced or spelled by the engine */
  | 'nothing_to_align'
  /** a corpus too small for model adaptation to change anything (`tazamun adapt`) */
  | 'corpus_too_small';

/** The engine itself failed (WASM trap, decoder state, a bug): not the user's doing. */
export type EngineFaultCode = 'engine_fault';

export type EngineErrorCode = EngineInputErrorCode | EngineFaultCode;

const INPUT_CODES: ReadonlySet<string> = new Set<EngineInputErrorCode>([
  'transcript_too_long',
  'grammar_too_large',
  'unknown_language',
  'model_not_installed',
  'unsupported_option',
  'nothing_to_align',
  'corpus_too_small',
]);

export class EngineError extends Error {
  /** true when the user's input caused it (no retry, no refund); false for an engine fault */
  readonly input: boolean;
  /** figures a caller can word the error with (corpus_too_small: `seconds` found, `needed`) */
  readonly params: Record<string, string | number>;

  constructor(
    readonly code: EngineErrorCode,
    message: string,
    options?: { cause?: unknown; params?: Record<string, string | number> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EngineError';
    this.input = INPUT_CODES.has(code);
    this.params = options?.params ?? {};
  }
}

export function isEngineFault(err: unknown): boolean {
  return err instanceof EngineError && !err.input;
}

/**
 * A readable message for anything thrown. Emscripten's exit() throws an ExitStatus, a plain object whose
 * String() is "[object Object]" (soundswallower calls exit() when an allocation fails); other libraries
 * throw strings or numbers.
 */
export function describeThrown(err: unknown): string {
  if (err instanceof Error) return err.message || err.name || 'unknown error';
  if (typeof err === 'string') return err || 'unknown error';
  if (typeof err === 'object' && err !== null) {
    const o = err as { name?: unknown; message?: unknown; error?: unknown; status?: unknown };
    if (o.name === 'ExitStatus')
      return `the decoder aborted (exit status ${String(o.status)}), most often an allocation that failed`;
    if (typeof o.message === 'string' && o.message) return o.message;
    if (typeof o.error === 'string' && o.error) return o.error;
    try {
      const json = JSON.stringify(err);
      if (json && json !== '{}') return json;
    } catch {
      // a cycle: the constructor's name says at least what it was
    }
    return `${(err as object).constructor?.name ?? 'object'} thrown`;
  }
  return String(err);
}

/** Any thrown value as an EngineError; an EngineError passes through, anything else is an engine fault. */
export function toEngineError(err: unknown, context?: string): EngineError {
  if (err instanceof EngineError) return err;
  const what = describeThrown(err);
  return new EngineError('engine_fault', context ? `${context}: ${what}` : what, { cause: err });
}
