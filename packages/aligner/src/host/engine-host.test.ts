// The engine host on real worker threads and the real engine: a thread whose engine failed is retired
// and the next task runs on a fresh one (the test hook leaves the faulted thread broken for every later
// task, as the WASM decoder was in issue 11, so a host that kept it would fail the next task); a task
// refused for its input keeps its thread; progress comes in the two stages; an abort ends the task; an
// adapted model's folder, with its word-edge correction, is loaded and applied by a thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AlignmentOptions, engineOptionsOf } from '@tazamun/contracts/alignment-options';
import { evalDir } from '@tazamun/aligner/testing/eval-dir';
import { writeClonedModel } from '@tazamun/aligner/testing/cloned-model';
import { align } from '../engine.ts';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { ARABIC_PHONES } from '../acoustic/hmm/adapt/corpus.ts';
import { EDGES_FILE } from '../acoustic/hmm/adapt/edges.ts';
import type { EdgeCorrection } from '../acoustic/hmm/adapt/edges.ts';
import { MANIFEST } from '../acoustic/hmm/adapt/model-dir.ts';
import { ENGINE_FAULT_MARKER, EngineHost } from './engine-host.ts';
import type { EngineFaultHook } from './engine-host.ts';
import type { AlignTask, EngineOutcome, EngineProgress } from './protocol.ts';

const UTT = join(evalDir(), 'timit-dev', 'dr1-fvmh0_sa1');
const clip = JSON.parse(readFileSync(`${UTT}.json`, 'utf8')) as { text: string };
const options = AlignmentOptions.parse({});
const task = (text: string): AlignTask => ({
  kind: 'align',
  audio: `${UTT}.wav`,
  text,
  language: 'eng',
  options,
});
const expected = clip.text.split(/\s+/).length;

function words(o: EngineOutcome): number {
  assert.equal(o.type, 'result', JSON.stringify(o));
  return (JSON.parse((o as { json: string }).json) as { words: unknown[] }).words.length;
}

test('an engine fault retires its thread; the next tasks run on a fresh one; input errors keep it', async (t) => {
  const hook: EngineFaultHook = { faults: 0 };
  const host = new EngineHost(hook);
  t.after(() => host.close());
  const progress: EngineProgress[] = [];
  assert.equal(words(await host.run(task(clip.text), { onProgress: (p) => progress.push(p) })), expected);
  assert.deepEqual(host.stats, { started: 1, retired: 0 });
  // analysis first, then the search's share from 0 to 1, never going back
  assert.deepEqual(progress[0], { stage: 'analysis', done: 0 });
  assert.deepEqual(progress[1], { stage: 'alignment', done: 0 });
  assert.deepEqual(progress.at(-1), { stage: 'alignment', done: 1 });
  const done = progress.slice(1).map((p) => p.done);
  assert.deepEqual(
    done,
    [...done].sort((a, b) => a - b),
  );

  hook.faults = 1;
  const fault = await host.run(task(`${ENGINE_FAULT_MARKER}${clip.text}`));
  assert.equal(fault.type, 'engine_fault');
  assert.equal((fault as { message: string }).message, 'memory access out of bounds (test hook)');
  assert.match((fault as { stack: string }).stack, /^RuntimeError: memory access out of bounds/);
  assert.deepEqual(host.stats, { started: 1, retired: 1 }, 'the faulted thread was terminated');
  assert.equal(hook.faults, 0);

  // the same marked task again: the hook has no fault left, the marker is taken off the transcript
  assert.equal(words(await host.run(task(`${ENGINE_FAULT_MARKER}${clip.text}`))), expected);
  assert.deepEqual(host.stats, { started: 2, retired: 1 }, 'a fresh thread ran it');

  // the user's input: the engine's own bounds check refuses it, the thread stays in service
  const refused = await host.run(task('word '.repeat(5000)));
  assert.deepEqual(
    { ...refused, message: undefined },
    {
      type: 'input_error',
      source: 'bounds',
      code: 'transcript_too_long',
      params: { seconds: 3.4, max_words: 84, max_characters: 505 },
      message: undefined,
    },
  );
  // the engine's own input codes come with their source
  const unknown = await host.run({ ...task(clip.text), language: 'qqq' });
  assert.deepEqual(
    [unknown.type, (unknown as { source: string }).source, (unknown as { code: string }).code],
    ['input_error', 'engine', 'unknown_language'],
  );
  const missing = await host.run({ ...task(clip.text), audio: `${UTT}.absent.wav` });
  assert.deepEqual([missing.type, (missing as { code: string }).code], ['audio_error', 'not_found']);
  assert.equal(words(await host.run(task(clip.text))), expected);
  assert.deepEqual(host.stats, { started: 2, retired: 1 }, 'no thread was retired for an input error');
  assert.deepEqual(host.runs, { runs: 7, ended: 7 });
});

test('runRetrying runs a faulted task once more on a fresh thread, and names both causes when both fail', async (t) => {
  const hook: EngineFaultHook = { faults: 1 };
  const host = new EngineHost(hook);
  t.after(() => host.close());
  const once = await host.runRetrying(task(`${ENGINE_FAULT_MARKER}${clip.text}`));
  assert.equal(once.retried, true);
  assert.equal(words(once.outcome), expected);
  assert.deepEqual(host.stats, { started: 2, retired: 1 });

  hook.faults = 2;
  const twice = await host.runRetrying(task(`${ENGINE_FAULT_MARKER}${clip.text}`));
  assert.deepEqual(twice, {
    retried: true,
    outcome: {
      type: 'engine_fault',
      message: 'memory access out of bounds (test hook)',
      stack: (twice.outcome as { stack: string }).stack,
    },
  });
  // the first attempt ran on the idle thread the first call left, the second on a new one
  assert.deepEqual(host.stats, { started: 3, retired: 3 });
});

test('an abort terminates the task and its thread; a task aborted before it starts never runs', async (t) => {
  const host = new EngineHost();
  t.after(() => host.close());
  const controller = new AbortController();
  const running = host.run(task(clip.text), {
    signal: controller.signal,
    onProgress: (p) => p.stage === 'analysis' && controller.abort('cancel'),
  });
  assert.deepEqual(await running, { type: 'aborted' });
  assert.deepEqual(host.stats, { started: 1, retired: 0 });
  assert.deepEqual(await host.run(task(clip.text), { signal: controller.signal }), { type: 'aborted' });
  assert.deepEqual(host.runs, { runs: 1, ended: 1 });
});

test('a thread aligns with an adapted model and its word-edge correction, as the engine does in process', async (t) => {
  const work = mkdtempSync(join(tmpdir(), 'tz-host-model-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  // an Arabic model (the base with Arabic phones of its own) keeping a word-edge table that moves every
  // start 20 ms earlier and every end 20 ms later (counts large enough that nothing is shrunk)
  const edges: EdgeCorrection = {
    format: 1,
    classes: {},
    shrink: 10,
    shrinkParent: 20,
    entries: {
      's:P': { n: 1e9, mean: 0.02 },
      's:J': { n: 1e9, mean: 0.02 },
      'e:P': { n: 1e9, mean: -0.02 },
      'e:J': { n: 1e9, mean: -0.02 },
    },
    words: 100,
  };
  const model = join(work, 'model');
  const { manifest } = writeClonedModel(model, ARABIC_PHONES, edges);
  assert.equal(manifest.edges?.file, EDGES_FILE);
  // the same folder without its table
  const bare = join(work, 'bare');
  cpSync(model, bare, { recursive: true });
  rmSync(join(bare, EDGES_FILE));
  const bareManifest = JSON.parse(readFileSync(join(bare, MANIFEST), 'utf8')) as Record<string, unknown>;
  delete bareManifest.edges;
  writeFileSync(join(bare, MANIFEST), JSON.stringify({ ...bareManifest, id: `${manifest.id}-bare` }));

  const dir = join(evalDir(), 'ar-synthetic');
  const ref = JSON.parse(readFileSync(join(dir, 'arsyn_01.json'), 'utf8')) as { audio: string; text: string };
  const arabic = (model?: string): AlignTask => ({
    kind: 'align',
    audio: join(dir, ref.audio),
    text: ref.text,
    language: 'ara',
    options,
    recognition: false,
    ...(model ? { model } : {}),
  });
  const result = (o: EngineOutcome): AlignmentResult => {
    assert.equal(o.type, 'result', JSON.stringify(o));
    return JSON.parse((o as { json: string }).json) as AlignmentResult;
  };
  const host = new EngineHost();
  t.after(() => host.close());
  // one thread: the language's own model first, then the adapted folder, then the bare one
  const own = result(await host.run(arabic()));
  const adapted = result(await host.run(arabic(model)));
  const plain = result(await host.run(arabic(bare)));
  assert.deepEqual(host.stats, { started: 1, retired: 0 });
  assert.notEqual(own.engine.model, manifest.id);
  assert.equal(adapted.engine.model, manifest.id);
  assert.equal(plain.engine.model, `${manifest.id}-bare`);
  const phones = (r: AlignmentResult) => r.words.flatMap((w) => w.phones ?? []);
  assert.ok(
    phones(own).some((p) => p.approximated),
    'the English model stands in for Arabic phones',
  );
  assert.deepEqual(
    phones(adapted).filter((p) => p.approximated),
    [],
    'the adapted model has Arabic phones',
  );
  // the thread's result is the engine's in process with the same folder
  const inProcess = await align(join(dir, ref.audio), ref.text, {
    ...engineOptionsOf(options),
    lang: 'ara',
    recognition: false,
    model,
  });
  assert.deepEqual(adapted.words, inProcess.words);
  // and the table moved the edges: the first word starts 20 ms earlier than with the bare folder
  const first = plain.words.find((w) => w.start !== null)!;
  const moved = adapted.words.find((w) => w.start !== null)!;
  assert.ok(
    Math.abs(moved.start! - Math.max(0, first.start! - 0.02)) < 0.0011,
    `${first.start} -> ${moved.start}`,
  );
  const last = plain.words.findLast((w) => w.end !== null)!;
  const lastMoved = adapted.words.findLast((w) => w.end !== null)!;
  assert.ok(
    Math.abs(lastMoved.end! - Math.min(adapted.audio.duration, last.end! + 0.02)) < 0.0011,
    `${last.end} -> ${lastMoved.end}`,
  );
});
