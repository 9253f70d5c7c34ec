// Real speech from the eval set (TIMIT sample): the test fails loudly when the set is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { align } from './engine.ts';
import { AudioError } from './audio/decode.ts';
import { EngineError } from './errors.ts';
import { moduleGenerations } from './acoustic/hmm/decoder.ts';

const EVAL = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/eval');
const UTT = join(EVAL, 'timit-dev', 'dr1-fvmh0_sa1');

function reference(): { text: string; words: { w: string; start: number; end: number }[] } {
  assert.ok(
    existsSync(`${UTT}.wav`),
    `eval set missing: ${UTT}.wav (the engine tests need /work/shared/eval)`,
  );
  return JSON.parse(readFileSync(`${UTT}.json`, 'utf8')) as ReturnType<typeof reference>;
}

test('aligns an English sentence close to the hand labels, in the platform schema', async () => {
  const ref = reference();
  const res = await align(`${UTT}.wav`, ref.text, { lang: 'en' });
  AlignmentResult.parse(res);
  assert.equal(res.words.length, ref.words.length);
  assert.ok(res.words.every((w) => w.status === 'aligned'));
  let err = 0;
  res.words.forEach((w, i) => {
    err += Math.abs(w.start! - ref.words[i]!.start) + Math.abs(w.end! - ref.words[i]!.end);
    assert.ok(w.phones.length > 0 && w.phones[0]!.start === w.start);
    if (i > 0) assert.ok(w.start! >= res.words[i - 1]!.end! - 1e-6, 'words in order, not overlapping');
  });
  assert.ok(err / (2 * ref.words.length) < 0.05, `mean boundary error ${err / (2 * ref.words.length)} s`);
  assert.equal(res.words[0]!.word, 'She');
  assert.equal(res.segments.length, 1);
  assert.equal(res.metrics.coverage, 1);
  assert.ok(
    res.metrics.wer !== null && res.metrics.cer !== null && res.metrics.wer_method.includes('phone-loop'),
  );
});

test('words that are not in the audio come back not_found, the others keep their times', async () => {
  const ref = reference();
  const res = await align(`${UTT}.wav`, 'She had your dark suit in greasy telephone wash water all year.', {
    lang: 'en',
    recognition: false,
  });
  const tel = res.words.find((w) => w.word === 'telephone')!;
  assert.equal(tel.status, 'not_found');
  assert.equal(tel.start, null);
  const wash = res.words.find((w) => w.word === 'wash')!;
  const refWash = ref.words.find((w) => w.w === 'wash')!;
  assert.ok(Math.abs(wash.start! - refWash.start) < 0.05);
  assert.ok(res.metrics.coverage < 1);
});

test('speech missing from the transcript goes to the garbage loop, not into the words around it', async () => {
  // "The two artists exchanged autographs." read with "artists" left out of the text: searched without
  // the loop, "two" stretches over "artists" and "exchanged" slides into it (about 150 ms off on average).
  const utt = join(EVAL, 'timit-dev', 'dr1-fvmh0_sx296');
  assert.ok(existsSync(`${utt}.wav`), `eval set missing: ${utt}.wav`);
  const ref = JSON.parse(readFileSync(`${utt}.json`, 'utf8')) as ReturnType<typeof reference>;
  const res = await align(`${utt}.wav`, 'The two exchanged autographs.', { lang: 'en', recognition: false });
  const kept = ref.words.filter((w) => w.w !== 'artists');
  assert.equal(res.words.length, kept.length);
  res.words.forEach((w, i) => {
    assert.equal(w.status, 'aligned', w.word);
    const r = kept[i]!;
    const err = Math.max(Math.abs(w.start! - r.start), Math.abs(w.end! - r.end));
    assert.ok(err < 0.06, `${w.word}: ${w.start}-${w.end}, reference ${r.start}-${r.end}`);
  });
  // "two" ends where it ends in the audio, not at the start of "exchanged"
  assert.ok(res.words[1]!.end! < 0.6, `"two" ends at ${res.words[1]!.end}`);
});

test('the wrong transcript scores a higher WER than the right one', async () => {
  const ref = reference();
  const right = await align(`${UTT}.wav`, ref.text, { lang: 'en', garbage: false });
  const wrong = await align(`${UTT}.wav`, 'Pack my box with five dozen liquor jugs and go home.', {
    lang: 'en',
    garbage: false,
  });
  assert.ok(
    wrong.metrics.cer! > right.metrics.cer!,
    `cer right ${right.metrics.cer} wrong ${wrong.metrics.cer}`,
  );
});

test('silent audio is refused with a clear error', async () => {
  await assert.rejects(
    align(new Float32Array(32000), 'hello world', { lang: 'en' }),
    (e: unknown) => e instanceof AudioError && e.code === 'silent',
  );
});

test('an unknown language is refused', async () => {
  await assert.rejects(align(new Float32Array(32000), 'hello', { lang: 'zzz' }), /unknown language/);
});

test('a transcript far too long for its audio is refused as an input error; the next job runs', async () => {
  const ref = reference();
  await align(`${UTT}.wav`, ref.text, { lang: 'en', recognition: false });
  const generation = moduleGenerations();
  const words = ref.text.split(/\s+/);
  // 30,000 words for 3 s of audio: about 270,000 arcs, past the ceiling (about 300 MB of WASM heap).
  const huge = Array.from({ length: 30_000 }, (_, i) => words[i % words.length]).join(' ');
  await assert.rejects(
    align(`${UTT}.wav`, huge, { lang: 'en', recognition: false }),
    (e: unknown) =>
      e instanceof EngineError &&
      e.code === 'grammar_too_large' &&
      e.input &&
      /^the transcript is far longer than the audio can hold: its search graph for 3\.\d s of audio has 30001 states and \d+ arcs \(at most 50000 and 200000\)$/.test(
        e.message,
      ),
  );
  const res = await align(`${UTT}.wav`, ref.text, { lang: 'en', recognition: false });
  assert.equal(res.metrics.coverage, 1);
  assert.equal(moduleGenerations(), generation, 'the refusal did not retire the module');
});
