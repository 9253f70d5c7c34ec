// The one mapping from an engine task's outcome to what an alignment or a re-alignment job records.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EngineOutcome } from '@tazamun/aligner/host';
import { JobAborted, JobFailure } from './job-queue.ts';
import { adaptResultOrThrow, reasonOf, resultOrThrow } from './engine-outcome.ts';

const live = new AbortController().signal;

function failure(outcome: EngineOutcome, job: 'align' | 'realign'): JobFailure {
  try {
    resultOrThrow(outcome, job, live);
  } catch (err) {
    assert.ok(err instanceof JobFailure, `a JobFailure, got ${String(err)}`);
    return err;
  }
  assert.fail('the outcome was taken for a result');
}

test('a result gives its JSON; an abort ends the run with the signal’s reason', () => {
  assert.equal(resultOrThrow({ type: 'result', json: '{"words":[]}' }, 'align', live), '{"words":[]}');
  const controller = new AbortController();
  controller.abort('cancel');
  assert.throws(
    () => resultOrThrow({ type: 'aborted' }, 'align', controller.signal),
    (err) => err instanceof JobAborted && err.reason === 'cancel',
  );
});

test('an engine fault or a crash is not the user’s doing: refunded and retried, the cause kept for the log', () => {
  const fault = failure(
    {
      type: 'engine_fault',
      message: 'memory access out of bounds\n    at wasm://x',
      stack: 'RuntimeError: …',
    },
    'align',
  );
  assert.equal(fault.code, 'engine_failed');
  assert.deepEqual(fault.params, { reason: 'memory access out of bounds' });
  assert.deepEqual(
    { refund: fault.options.refund, retry: fault.options.retry },
    { refund: true, retry: true },
  );
  assert.equal((fault.cause as Error).stack, 'RuntimeError: …');
  const crash = failure({ type: 'crash', message: 'the worker thread exited with code 1' }, 'align');
  assert.equal(crash.code, 'engine_failed');
  assert.equal(crash.options.retry, true);
  // a stretch has no quota unit to give back
  const realign = failure({ type: 'crash', message: 'x' }, 'realign');
  assert.equal(realign.code, 'realign_failed');
  assert.deepEqual(realign.params, { reason: 'the engine stopped' });
  assert.deepEqual(
    { refund: realign.options.refund, retry: realign.options.retry },
    { refund: false, retry: true },
  );
});

test('the user’s audio or transcript: the catalogue’s code, neither refunded nor retried', () => {
  const silent = failure({ type: 'audio_error', code: 'silent', message: 'the audio is silent' }, 'align');
  assert.equal(silent.code, 'audio_silent');
  const damaged = failure({ type: 'audio_error', code: 'decode_failed', message: 'ffmpeg: …' }, 'align');
  assert.equal(damaged.code, 'audio_unusable');
  assert.deepEqual(damaged.params, { reason: 'the audio could not be decoded (damaged or truncated file)' });
  const bounds = failure(
    {
      type: 'input_error',
      source: 'bounds',
      code: 'transcript_too_long',
      params: { words: 900, seconds: 2 },
      message: 'too many words',
    },
    'align',
  );
  assert.equal(bounds.code, 'transcript_too_long');
  assert.deepEqual(bounds.params, { words: 900, seconds: 2 });
  const engine = failure(
    { type: 'input_error', source: 'engine', code: 'empty_text', params: {}, message: 'no word to align' },
    'align',
  );
  assert.equal(engine.code, 'alignment_input_rejected');
  assert.deepEqual(engine.params, { reason: 'no word to align' });
  for (const f of [silent, damaged, bounds, engine]) {
    assert.equal(f.options.refund, false, f.code);
    assert.notEqual(f.options.retry, true, f.code);
  }
  const stretch = failure({ type: 'audio_error', code: 'not_found', message: 'gone' }, 'realign');
  assert.equal(stretch.code, 'realign_failed');
  assert.deepEqual(stretch.params, { reason: 'gone' });
});

test('the reason in a job error is the first line, at most 300 characters', () => {
  assert.equal(reasonOf('memory access out of bounds\n    at wasm://…'), 'memory access out of bounds');
  assert.equal(reasonOf('   '), 'unknown error');
  const long = reasonOf('x'.repeat(1000));
  assert.equal(long.length, 300);
  assert.equal(long.at(-1), '…');
});

function adaptFailure(outcome: EngineOutcome): JobFailure {
  try {
    adaptResultOrThrow(outcome, live);
  } catch (err) {
    assert.ok(err instanceof JobFailure, `a JobFailure, got ${String(err)}`);
    return err;
  }
  assert.fail('the outcome was taken for a result');
}

test('an adaptation: too little speech is the user’s, with the engine’s figures; a fault is retried; no quota at stake', () => {
  assert.equal(adaptResultOrThrow({ type: 'result', json: '{"manifest":{}}' }, live), '{"manifest":{}}');
  const small = adaptFailure({
    type: 'input_error',
    source: 'engine',
    code: 'corpus_too_small',
    params: { seconds: 41, needed: 60 },
    message: 'the corpus gave 41 s of aligned speech; adaptation needs at least 60 s',
  });
  assert.equal(small.code, 'corpus_too_small');
  assert.deepEqual(small.params, { seconds: 41, needed: 60 });
  assert.deepEqual(small.options, { refund: false });
  const fault = adaptFailure({
    type: 'crash',
    message:
      'the worker thread failed: Worker terminated due to reaching memory limit: JS heap out of memory',
  });
  assert.equal(fault.code, 'adaptation_failed');
  assert.equal(fault.options.retry, true);
  assert.equal(fault.options.refund, false);
  assert.match(String(fault.params.reason), /memory limit/);
  const other = adaptFailure({
    type: 'input_error',
    source: 'engine',
    code: 'unknown_language',
    params: {},
    message: 'language "xyz" is not supported',
  });
  assert.equal(other.code, 'adaptation_failed');
  assert.equal(other.options.retry, undefined);
});
