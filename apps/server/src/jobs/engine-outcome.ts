// The one mapping from how an engine task ended (the host's outcome, classified in its thread) to what a
// job records: the result JSON, or the catalogue's code and numbers the user reads, whether the quota
// unit comes back and whether the runner retries. The alignment and the re-alignment of a stretch differ
// only in the codes they report.
import type { EngineOutcome } from '@tazamun/aligner/host';
import { ERRORS } from '@tazamun/contracts/errors';
import type { ErrorCode } from '@tazamun/contracts/errors';
import { JobAborted, JobFailure } from './job-queue.ts';

const AUDIO_REASONS: Record<string, string> = {
  not_found: 'the stored audio file is missing',
  empty: 'the audio holds no samples',
  not_audio: 'the file has no readable audio stream',
  decode_failed: 'the audio could not be decoded (damaged or truncated file)',
  too_short: 'the audio is too short (less than 0.1 s)',
};

const MAX_REASON = 300;

/** One line of the cause, short enough for the job's error message. */
export function reasonOf(message: string): string {
  const line = message.split('\n')[0]!.trim() || 'unknown error';
  return line.length > MAX_REASON ? `${line.slice(0, MAX_REASON - 1)}…` : line;
}

/** The thread's error rebuilt here, with the thread's stack, for the log. */
function threadError(o: { message: string; stack?: string | null }): Error {
  const err = new Error(o.message);
  if (o.stack) err.stack = o.stack;
  return err;
}

/**
 * The result JSON of an adaptation that succeeded; otherwise what the runner settles. No quota is at
 * stake (an adaptation is free); an engine fault or a crashed thread (one over its heap limit included)
 * is retried once; a corpus too small is the user's, with the engine's figures.
 */
export function adaptResultOrThrow(outcome: EngineOutcome, signal: AbortSignal): string {
  switch (outcome.type) {
    case 'result':
      return outcome.json;
    case 'aborted':
      throw new JobAborted(signal.reason);
    case 'crash':
    case 'engine_fault':
      throw new JobFailure(
        'adaptation_failed',
        { reason: reasonOf(outcome.message) },
        { refund: false, retry: true, cause: threadError(outcome) },
      );
    case 'input_error':
      if (outcome.code === 'corpus_too_small')
        throw new JobFailure('corpus_too_small', outcome.params, { refund: false });
      throw new JobFailure('adaptation_failed', { reason: reasonOf(outcome.message) }, { refund: false });
    case 'audio_error':
      throw new JobFailure('adaptation_failed', { reason: reasonOf(outcome.message) }, { refund: false });
  }
}

/**
 * The result JSON of a task that succeeded; otherwise throws what the runner settles: JobAborted for an
 * abort, a JobFailure for the rest. An engine fault or a crashed thread is not the user's doing (the unit
 * comes back for an alignment, and the runner retries once; the host retired the thread, so the retry
 * runs on a fresh one); what the user's input caused is neither refunded nor retried.
 */
export function resultOrThrow(outcome: EngineOutcome, job: 'align' | 'realign', signal: AbortSignal): string {
  switch (outcome.type) {
    case 'result':
      return outcome.json;
    case 'aborted':
      throw new JobAborted(signal.reason);
    case 'crash':
    case 'engine_fault':
      if (job === 'realign')
        throw new JobFailure(
          'realign_failed',
          { reason: 'the engine stopped' },
          { refund: false, retry: true },
        );
      throw new JobFailure(
        'engine_failed',
        { reason: reasonOf(outcome.message) },
        { refund: true, retry: true, cause: threadError(outcome) },
      );
    case 'input_error':
    case 'audio_error':
      if (job === 'realign')
        throw new JobFailure('realign_failed', { reason: outcome.message }, { refund: false });
      throw inputFailure(outcome);
  }
}

function inputFailure(outcome: Extract<EngineOutcome, { type: 'input_error' | 'audio_error' }>): JobFailure {
  if (outcome.type === 'audio_error') {
    if (outcome.code === 'silent') return new JobFailure('audio_silent', {}, { refund: false });
    return new JobFailure(
      'audio_unusable',
      { reason: AUDIO_REASONS[outcome.code] ?? outcome.message },
      { refund: false },
    );
  }
  // the job bounds carry the catalogue's own code and numbers; the engine's input codes are its own,
  // worded with their message
  if (outcome.source === 'bounds' && outcome.code in ERRORS)
    return new JobFailure(outcome.code as ErrorCode, outcome.params, { refund: false });
  return new JobFailure('alignment_input_rejected', { reason: reasonOf(outcome.message) }, { refund: false });
}
