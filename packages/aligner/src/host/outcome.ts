// The one classification of how an engine task failed, made inside the thread where the error is still
// an instance of its class: the user's audio, the user's transcript or options, or the engine's fault.
// Anything not known to be the user's counts as a fault, so an unknown failure retires the thread rather
// than leave a possibly broken one in service.
import { JobBoundsError } from '@tazamun/contracts/job-bounds';
import { AudioError } from '../audio/audio-file.ts';
import { EngineError, describeThrown } from '../errors.ts';
import type { EngineOutcome } from './protocol.ts';

export function classifyError(
  err: unknown,
): Extract<EngineOutcome, { type: 'audio_error' | 'input_error' | 'engine_fault' }> {
  if (err instanceof AudioError) return { type: 'audio_error', code: err.code, message: err.message };
  if (err instanceof JobBoundsError)
    return {
      type: 'input_error',
      source: 'bounds',
      code: err.code,
      params: err.params,
      message: err.message,
    };
  if (err instanceof EngineError && err.input)
    return {
      type: 'input_error',
      source: 'engine',
      code: err.code,
      params: err.params,
      message: err.message,
    };
  return {
    type: 'engine_fault',
    message: describeThrown(err),
    stack: err instanceof Error ? (err.stack ?? null) : null,
  };
}

/** The engine failed (or its thread died): retire the thread; the task itself may succeed on a fresh one. */
export function isFault(
  outcome: EngineOutcome,
): outcome is Extract<EngineOutcome, { type: 'engine_fault' | 'crash' }> {
  return outcome.type === 'engine_fault' || outcome.type === 'crash';
}
