// The pool on real worker threads and the real engine: a thread whose engine failed is retired and the
// next job runs on a fresh one (the test hook leaves the faulted thread broken for every later job, as
// the WASM decoder was in issue 11, so a pool that kept it would fail the next job); a job refused for
// its input keeps its thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AlignmentOptions } from '@tazamun/contracts/alignments';
import { evalClip } from '@tazamun/server/testing/jobs-test-app';
import { AlignThreadPool, ENGINE_FAULT_MARKER } from './thread-pool.ts';
import type { EngineFaultHook, ThreadOutcome } from './thread-pool.ts';

const clip = evalClip();
const never = new AbortController().signal;
const options: AlignmentOptions = {
  precision: 'standard',
  normalize: true,
  remove_fillers: false,
  numbers_to_words: true,
  engine: 'auto',
  input_kind: 'orthography',
};

function words(o: ThreadOutcome): number {
  assert.equal(o.type, 'result', JSON.stringify(o));
  return (JSON.parse((o as { json: string }).json) as { words: unknown[] }).words.length;
}

test('an engine fault retires its thread; the next jobs run on a fresh one; input errors keep it', async (t) => {
  const hook: EngineFaultHook = { faults: 0 };
  const pool = new AlignThreadPool(hook);
  t.after(() => pool.close());
  const run = (text: string) =>
    pool.run({ audioPath: clip.wav, text, language: 'eng', options }, never, () => undefined);
  const expected = clip.text.split(/\s+/).length;

  assert.equal(words(await run(clip.text)), expected);
  assert.deepEqual(pool.stats, { started: 1, retired: 0 });

  hook.faults = 1;
  const fault = await run(`${ENGINE_FAULT_MARKER}${clip.text}`);
  assert.equal(fault.type, 'engine_fault');
  assert.equal((fault as { message: string }).message, 'memory access out of bounds (test hook)');
  assert.match((fault as { stack: string }).stack, /^RuntimeError: memory access out of bounds/);
  assert.deepEqual(pool.stats, { started: 1, retired: 1 }, 'the faulted thread was terminated');
  assert.equal(hook.faults, 0);

  // the same marked job again: the hook has no fault left, the marker is taken off the transcript
  assert.equal(words(await run(`${ENGINE_FAULT_MARKER}${clip.text}`)), expected);
  assert.deepEqual(pool.stats, { started: 2, retired: 1 }, 'a fresh thread ran it');

  // the user's input: the engine's own bounds check refuses it, the thread stays in service
  const refused = await run('word '.repeat(5000));
  assert.deepEqual(
    { ...refused, message: undefined },
    {
      type: 'input_error',
      code: 'transcript_too_long',
      params: { seconds: 3.4, max_words: 84, max_characters: 505 },
      message: undefined,
    },
  );
  assert.equal(words(await run(clip.text)), expected);
  assert.deepEqual(pool.stats, { started: 2, retired: 1 }, 'no thread was retired for an input error');
});
