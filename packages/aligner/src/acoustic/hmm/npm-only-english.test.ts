// English with npm packages alone: soundswallower's own 8 kHz-band model, the Debian 16 kHz model hidden
// (TAZAMUN_SYSTEM_MODELS=off) as on a machine where `npm install` is all that ran. The recognition pass is
// on: its phone loop once took the npm dictionary's ";;" comment words for phones and failed with
// "word is not defined".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { align } from '../../engine.ts';
import { hasFullBandEnglish, resolveHmmModel } from './models.ts';
import { modelPhones } from './decoder.ts';
import { evalDir } from '@tazamun/aligner/testing/eval-dir';

process.env.TAZAMUN_SYSTEM_MODELS = 'off';

const EVAL = evalDir();

test('TAZAMUN_SYSTEM_MODELS=off hides the Debian model; the npm model is chosen', () => {
  assert.equal(hasFullBandEnglish(), false);
  assert.equal(resolveHmmModel('en').id, 'cmusphinx-en-us-ptm-8k');
  assert.equal(resolveHmmModel('en', 'full', { TAZAMUN_SYSTEM_MODELS: 'OFF' }).id, 'cmusphinx-en-us-ptm-8k');
  // The upgrade is taken when present and not hidden (it is installed in CI and on this machine).
  const debian = '/usr/share/pocketsphinx/model/en-us/en-us/mdef';
  assert.equal(
    resolveHmmModel('en', 'full', {}).id,
    existsSync(debian) ? 'cmusphinx-en-us-ptm-16k' : 'cmusphinx-en-us-ptm-8k',
  );
});

test("the npm model's phones come from its mdef: 42 phones, no dictionary comment words", () => {
  const phones = modelPhones(resolveHmmModel('en'));
  assert.equal(phones.size, 42);
  for (const p of ['AA', 'ZH', 'SIL', '+NSN+', '+SPN+']) assert.ok(phones.has(p), p);
  for (const w of ['CMU', 'Dictionary', 'Pronouncing']) assert.ok(!phones.has(w), w);
  assert.equal(modelPhones(resolveHmmModel('fr')).size, 36);
});

test('English aligns with the 8 kHz npm model, recognition pass on, jobs in a row', async () => {
  const utt = join(EVAL, 'timit-dev', 'dr1-fvmh0_sa1');
  assert.ok(existsSync(`${utt}.wav`), `eval set missing: ${utt}.wav`);
  const ref = JSON.parse(readFileSync(`${utt}.json`, 'utf8')) as {
    text: string;
    words: { start: number; end: number }[];
  };
  for (let run = 0; run < 2; run++) {
    const res = await align(`${utt}.wav`, ref.text, { lang: 'eng' });
    assert.equal(res.engine.model, 'cmusphinx-en-us-ptm-8k');
    assert.equal(res.metrics.coverage, 1);
    assert.ok(res.metrics.wer !== null && res.metrics.cer !== null, 'the recognition pass ran');
    let err = 0;
    res.words.forEach((w, i) => {
      err += Math.abs(w.start! - ref.words[i]!.start) + Math.abs(w.end! - ref.words[i]!.end);
    });
    const mean = err / (2 * ref.words.length);
    assert.ok(mean < 0.06, `mean boundary error ${mean.toFixed(3)} s`);
  }
});
