// Jobs in a row in ONE process, on ONE thread and one WASM module, with the recognition pass on: the
// French demo (48 s) used to leave the heap in a state where the next model loaded (Debian's 16 kHz
// English dictionary) broke a heap header, and every later job failed ("memory access out of bounds",
// then "Failed to start utterance processing"). See docs/engines.md, "Engine isolation".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { align } from './engine.ts';
import { moduleGenerations } from './acoustic/hmm/decoder.ts';
import { hasFullBandEnglish } from './acoustic/hmm/models.ts';

const SHARED = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared');
const DEMO = join(SHARED, 'demo-media');
const EVAL = join(SHARED, 'eval');

function need(path: string): string {
  assert.ok(existsSync(path), `test data missing: ${path} (the engine tests need /work/shared)`);
  return path;
}

interface Reference {
  text: string;
  words: { w: string; start: number; end: number }[];
}
const reference = (path: string): Reference => JSON.parse(readFileSync(need(path), 'utf8')) as Reference;

/** Words in order, inside the audio, each with phones that lie inside the word. */
function assertSane(res: AlignmentResult): void {
  let prevEnd = 0;
  for (const w of res.words) {
    if (w.status !== 'aligned') continue;
    assert.ok(w.start! >= prevEnd - 1e-6, `"${w.word}" starts before the previous word ends`);
    assert.ok(w.end! > w.start!, `"${w.word}" has no duration`);
    assert.ok(w.end! <= res.audio.duration + 1e-6, `"${w.word}" ends after the audio`);
    assert.ok(w.phones.length > 0, `"${w.word}" has no phones`);
    for (const p of w.phones) assert.ok(p.start >= w.start! - 1e-6 && p.end <= w.end! + 1e-6);
    prevEnd = w.end!;
  }
}

function meanBoundaryError(res: AlignmentResult, ref: Reference): number {
  assert.equal(res.words.length, ref.words.length);
  let sum = 0;
  res.words.forEach((w, i) => {
    assert.equal(w.status, 'aligned', `"${w.word}" not aligned`);
    sum += Math.abs(w.start! - ref.words[i]!.start) + Math.abs(w.end! - ref.words[i]!.end);
  });
  return sum / (2 * ref.words.length);
}

test('French demo, then English, Arabic and IPA jobs on one thread with the recognition pass on', async () => {
  const generation = moduleGenerations();

  const fr = await align(
    need(join(DEMO, 'fr-librivox-hugo', 'audio.wav')),
    readFileSync(need(join(DEMO, 'fr-librivox-hugo', 'text.txt')), 'utf8'),
    { lang: 'fra', engine: 'hmm' },
  );
  assert.equal(fr.engine.model, 'cmusphinx-fr-ptm');
  assert.equal(fr.metrics.words_total, 144);
  assert.ok(fr.metrics.words_aligned >= 140, `French: ${fr.metrics.words_aligned}/144 aligned`);
  assert.ok(fr.metrics.wer !== null, 'the recognition pass ran');
  assertSane(fr);
  // "Condamné à mort !" opens the reading; "libre." closes it, less than a second before the end.
  assert.ok(fr.words[0]!.start! < 1.5);
  const last = fr.words[fr.words.length - 1]!;
  assert.equal(last.status, 'aligned');
  assert.ok(fr.audio.duration - last.end! < 1.5, `last word ends at ${last.end} of ${fr.audio.duration} s`);

  // The 24.7 s English demo: the job that used to crash after the French one.
  const en = await align(
    need(join(DEMO, 'en-librivox-austen', 'audio.wav')),
    readFileSync(need(join(DEMO, 'en-librivox-austen', 'text.txt')), 'utf8'),
    { lang: 'eng', engine: 'hmm' },
  );
  assert.equal(en.engine.model, hasFullBandEnglish() ? 'cmusphinx-en-us-ptm-16k' : 'cmusphinx-en-us-ptm-8k');
  assert.equal(en.metrics.words_total, 71);
  assert.equal(en.metrics.words_aligned, 71);
  assert.equal(en.metrics.coverage, 1);
  assert.ok(en.metrics.wer !== null);
  assertSane(en);

  // English again, against hand labels (TIMIT): the timings are right, not only present.
  const timit = join(EVAL, 'timit-dev', 'dr1-fvmh0_sa1');
  const enRef = reference(`${timit}.json`);
  const en2 = await align(need(`${timit}.wav`), enRef.text, { lang: 'eng', engine: 'hmm' });
  const enErr = meanBoundaryError(en2, enRef);
  assert.ok(enErr < 0.05, `English mean boundary error ${enErr.toFixed(3)} s`);

  const arPath = join(EVAL, 'ar-synthetic', 'arsyn_01');
  const arRef = reference(`${arPath}.json`);
  const ar = await align(need(`${arPath}.wav`), arRef.text, { lang: 'ara', engine: 'hmm' });
  assert.equal(ar.metrics.coverage, 1);
  assert.ok(ar.metrics.wer !== null);
  assertSane(ar);
  const arErr = meanBoundaryError(ar, arRef);
  assert.ok(arErr < 0.08, `Arabic mean boundary error ${arErr.toFixed(3)} s`);

  const ipaPath = join(EVAL, 'ar-voxangeles-aeb', 'aeb-000-000');
  const ipaRef = reference(`${ipaPath}.json`);
  const ipa = await align(need(`${ipaPath}.wav`), ipaRef.text, {
    lang: 'aeb',
    engine: 'hmm',
    inputKind: 'ipa',
  });
  assert.equal(ipa.engine.route, 'ipa-input');
  assert.equal(ipa.metrics.coverage, 1);
  assert.ok(ipa.metrics.wer !== null);
  const ipaErr = meanBoundaryError(ipa, ipaRef);
  assert.ok(ipaErr < 0.1, `IPA mean boundary error ${ipaErr.toFixed(3)} s`);

  // And French once more after them: the French decoder is still sound too.
  const fr2 = await align(
    need(join(DEMO, 'fr-librivox-hugo', 'audio.wav')),
    readFileSync(join(DEMO, 'fr-librivox-hugo', 'text.txt'), 'utf8'),
    { lang: 'fra', engine: 'hmm', recognition: false },
  );
  assert.equal(fr2.metrics.words_aligned, fr.metrics.words_aligned);

  // No fault was absorbed on the way: every job ran in the module the first one started.
  assert.ok(moduleGenerations() - generation <= 1);
});
