// The mms back-end through onnxruntime-node with the tiny stand-in model installed as `models pull` leaves
// it, mostly through the engine's one pipeline (align with engine mms): windowing and stitching,
// romanisation links, <star>, times against the synthetic audio's own layout, greedy-decoding scores, and
// the result's shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ort from 'onnxruntime-node';
import { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { align } from '../../engine.ts';
import { normalizeTranscript } from '../../text/normalize.ts';
import { loadMmsBackend } from './backend.ts';
import { arraySource, computeEmissions, loadMmsModel, wav2vec2Frames } from './emissions.ts';
import { buildTinyMmsModel, speakWords, useModelsDir } from '@tazamun/aligner/testing/tiny-model';
import { MMS_VOCAB } from './vocab.ts';
import { greedyDecode } from '../../align/ctc-greedy.ts';
import { rawF32ToWav } from '../../audio/decode.ts';
import { EngineError } from '../../errors.ts';
import { MMS_IPA_REFUSAL } from '../../text/languages.ts';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Installs the tiny model in a fresh models folder and points this process at it (the engine finds the
 * model through TAZAMUN_MODELS_DIR, as the CLI and the worker do); the folder and variable are restored
 * after the test. node --test runs each file in its own process, and this file's tests one at a time.
 */
function withModels(t: { after: (fn: () => void) => void }, install = true): NodeJS.ProcessEnv {
  const { dir, restore } = useModelsDir(install);
  t.after(restore);
  return { ...process.env, TAZAMUN_MODELS_DIR: dir };
}

const MMS = { engine: 'mms' } as const;

test('the tiny model has the real export shape: input_values -> logits [1, frames, 31]', async () => {
  const session = await ort.InferenceSession.create(buildTinyMmsModel());
  assert.deepEqual(session.inputNames, ['input_values']);
  assert.deepEqual(session.outputNames, ['logits']);
  for (const n of [400, 719, 720, 16000, 16321]) {
    const out = await session.run({ input_values: new ort.Tensor('float32', new Float32Array(n), [1, n]) });
    assert.deepEqual(out.logits!.dims, [1, wav2vec2Frames(n), MMS_VOCAB.length], `${n} samples`);
  }
});

test('windows with context stitch into the same emissions as one pass', async (t) => {
  const env = withModels(t);
  const model = await loadMmsModel(join(env.TAZAMUN_MODELS_DIR!, 'mms/onnx/model_quantized.onnx'), 31);
  const { audio } = speakWords(['alpha', 'beta', 'gamma', 'delta', 'epsilon'], 4, 30);
  const whole = await computeEmissions(model, arraySource(audio), { windowSeconds: 1000 });
  const windowed = await computeEmissions(model, arraySource(audio), {
    windowSeconds: 0.5,
    contextSeconds: 0.1,
  });
  assert.equal(windowed.frames, whole.frames);
  assert.equal(whole.frames, wav2vec2Frames(audio.length));
  const spell = (em: typeof whole): string[] =>
    greedyDecode(em).map((w) => w.map((id) => MMS_VOCAB[id]).join(''));
  assert.deepEqual(spell(whole), ['alpha', 'beta', 'gamma', 'delta', 'epsilon']);
  assert.deepEqual(spell(windowed), spell(whole));
  // Each row is a log-softmax: probabilities sum to one.
  for (const t0 of [0, 100, whole.frames - 1]) {
    let z = 0;
    for (let k = 0; k < 31; k++) z += Math.exp(windowed.logProbs[t0 * 31 + k]!);
    assert.ok(Math.abs(z - 1) < 1e-4);
  }
});

test('word times come from the letters the audio spells, digits read out before romanising', async (t) => {
  const env = withModels(t);
  const spoken = ['i', 'have', 'two', 'cats'];
  const { audio, onsets, offsets } = speakWords(spoken);
  const result = await align(audio, 'I have 2 cats.', { lang: 'eng', ...MMS });
  assert.deepEqual(AlignmentResult.parse(result), result);
  assert.equal(result.engine.backend, 'mms');
  assert.deepEqual(
    result.words.map((w) => [w.word, w.normalized, w.status]),
    [
      ['I', 'i', 'aligned'],
      ['have', 'have', 'aligned'],
      ['2', 'two', 'aligned'],
      ['cats.', 'cats', 'aligned'],
    ],
  );
  // Without the boundary pads the times are the tones' own onsets and offsets, to the 2.5 ms frame offset
  // (the pads are a back-end option, so this part asks the back-end itself).
  const tight = await loadMmsBackend({ env, spans: { startPad: 0, endPad: 0 } });
  const { units } = await tight.pronounce(
    normalizeTranscript('I have 2 cats.', 'eng').tokens,
    'eng',
    'orthography',
  );
  const spans = await tight.alignWindow({
    samples: audio,
    offset: 0,
    units,
    precision: 'standard',
    openEnd: false,
    garbage: true,
  });
  assert.equal(spans.length, spoken.length);
  spans.forEach((w, i) => {
    assert.ok(
      Math.abs(w.start - onsets[i]! * 0.02) <= 0.003,
      `${spoken[i]} start ${w.start} vs ${onsets[i]! * 0.02}`,
    );
    assert.ok(
      Math.abs(w.end - offsets[i]! * 0.02) <= 0.003,
      `${spoken[i]} end ${w.end} vs ${offsets[i]! * 0.02}`,
    );
  });
  result.words.forEach((w, i) => {
    // The default pads widen a word by at most one frame before and two after (this model is not peaky).
    const start = onsets[i]! * 0.02;
    const end = offsets[i]! * 0.02;
    assert.ok(
      w.start! <= start + 0.003 && w.start! >= start - 0.023,
      `${w.word} start ${w.start} vs ${start}`,
    );
    assert.ok(w.end! >= end - 0.003 && w.end! <= end + 0.043, `${w.word} end ${w.end} vs ${end}`);
    assert.equal(w.phones.map((p) => p.phone).join(''), w.normalized);
    assert.ok(w.confidence > 0.8, `${w.word} confidence ${w.confidence}`);
  });
  assert.equal(result.metrics.cer, 0);
  assert.equal(result.metrics.wer, 0);
  assert.equal(result.metrics.coverage, 1);
});

test('other scripts: Russian and Arabic words are romanised and linked back to what the user wrote', async (t) => {
  withModels(t);
  const { audio } = speakWords(['привет', 'мир']);
  const ru = await align(audio, 'Привет, мир!', { lang: 'rus', ...MMS });
  assert.deepEqual(
    ru.words.map((w) => [w.word, w.normalized, w.status, w.char_start]),
    [
      ['Привет,', 'privet', 'aligned', 0],
      ['мир!', 'mir', 'aligned', 8],
    ],
  );
  const ar = speakWords(['كتاب', 'جديد']);
  const res = await align(ar.audio, 'كتاب جديد', { lang: 'ara', ...MMS });
  assert.deepEqual(
    res.words.map((w) => [w.word, w.status]),
    [
      ['كتاب', 'aligned'],
      ['جديد', 'aligned'],
    ],
  );
  assert.equal(res.metrics.cer, 0);
});

test('a word missing from the audio is not_found through <star>; extra speech does not move the neighbours', async (t) => {
  withModels(t);
  // The audio says "good morning extra words friend"; the text has "good morning dear friend".
  const { audio, onsets } = speakWords(['good', 'morning', 'xqxq', 'zzzz', 'friend']);
  const r = await align(audio, 'good morning dear friend', { lang: 'eng', ...MMS });
  assert.deepEqual(
    r.words.map((w) => w.status),
    ['aligned', 'aligned', 'not_found', 'aligned'],
  );
  assert.ok(Math.abs(r.words[3]!.start! - onsets[4]! * 0.02) <= 0.04);
  assert.equal(r.metrics.coverage, 0.75);
  assert.ok(r.metrics.cer! > 0, 'the recognition pass hears the extra words');
  // With the wildcard off, every word is forced into the audio.
  const forced = await align(audio, 'good morning dear friend', { lang: 'eng', ...MMS, garbage: false });
  assert.ok(forced.words.every((w) => w.status === 'aligned'));
});

test('without an installed model the error says how to pull it', async (t) => {
  withModels(t, false);
  const { audio } = speakWords(['hello']);
  await assert.rejects(align(audio, 'hello', { lang: 'eng', ...MMS }), /tazamun models pull mms/);
  await assert.rejects(align(audio, 'həˈloʊ', { lang: 'eng', inputKind: 'ipa', ...MMS }), /not IPA/);
});

test('the back-end itself refuses an IPA transcript with the same message', async (t) => {
  const env = withModels(t);
  const backend = await loadMmsBackend({ env });
  await assert.rejects(
    backend.pronounce([{ text: 'həˈloʊ', wordIndex: 0 }], 'eng', 'ipa'),
    (e: unknown) =>
      e instanceof EngineError && e.code === 'unsupported_option' && e.message === MMS_IPA_REFUSAL,
  );
});

test("the pulled model's own files are checked: vocabulary order and sampling rate", async (t) => {
  const env = withModels(t);
  const dir = join(env.TAZAMUN_MODELS_DIR!, 'mms');
  const { audio } = speakWords(['hello']);
  writeFileSync(
    join(dir, 'preprocessor_config.json'),
    JSON.stringify({ do_normalize: true, sampling_rate: 8000 }),
  );
  await assert.rejects(align(audio, 'hello', { lang: 'eng', ...MMS }), /expects 8000 Hz/);
  writeFileSync(join(dir, 'vocab.json'), JSON.stringify({ '<blank>': 0, a: 1 }));
  await assert.rejects(
    align(audio, 'hello', { lang: 'eng', ...MMS }),
    /not the MMS forced-aligner vocabulary/,
  );
});

test('CLI: `tazamun models list` sees the model installed in TAZAMUN_MODELS_DIR', (t) => {
  const env = withModels(t);
  const out = execFileSync(process.execPath, [join(pkg, 'bin/tazamun.mjs'), 'models', 'list'], {
    env,
    encoding: 'utf8',
  });
  assert.match(out, /hmm\s+installed/);
  assert.match(out, /mms\s+installed .*\(quantized\)/);
});

test('a real audio file decoded by ffmpeg aligns end to end', async (t) => {
  withModels(t);
  const dir = mkdtempSync(join(tmpdir(), 'tz-wav-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { audio } = speakWords(['salut', 'monde']);
  const raw = join(dir, 'a.f32');
  writeFileSync(raw, Buffer.from(audio.buffer));
  const wav = join(dir, 'a.wav');
  rawF32ToWav(raw, wav);
  const r = await align(wav, 'Salut monde', { lang: 'fra', ...MMS });
  assert.equal(r.audio.format, 'wav');
  assert.deepEqual(
    r.words.map((w) => w.status),
    ['aligned', 'aligned'],
  );
});
