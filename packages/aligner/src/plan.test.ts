// The one rule that decides an alignment's language and back-end (plan.ts), for align() and the upload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { EngineName, InputKind } from '@tazamun/contracts/alignment-options';
import { installTinyModel, useModelsDir } from '@tazamun/aligner/testing/tiny-model';
import { EngineError } from './errors.ts';
import { backendInstalled, planAlignment } from './plan.ts';

test('the back-end is chosen once for every engine and input, with the reason auto chose mms', (t) => {
  // where `models pull` would leave MMS: empty first, then with the tiny stand-in installed
  const { dir, restore } = useModelsDir(false);
  t.after(restore);
  const choose = (lang: string, engine: EngineName, inputKind: InputKind = 'orthography') => {
    const { backend, notes } = planAlignment(lang, { inputKind, engine });
    return { engine: backend, notes };
  };
  assert.deepEqual(choose('en', 'auto'), { engine: 'hmm', notes: [] });
  assert.deepEqual(choose('fr', 'auto'), { engine: 'hmm', notes: [] });
  assert.deepEqual(choose('en', 'mms'), { engine: 'mms', notes: [] });
  assert.deepEqual(choose('ar', 'hmm'), { engine: 'hmm', notes: [] });
  assert.deepEqual(choose('aeb', 'auto', 'ipa'), { engine: 'hmm', notes: [] });
  // Arabic on auto: hmm (cross-lingual) while MMS is not installed, MMS once it is, and the note says so
  assert.deepEqual(choose('ar', 'auto'), { engine: 'hmm', notes: [] });
  // written Yoruba has no hmm route: MMS, whether installed or not (the user is then told to pull it)
  assert.deepEqual(choose('yo', 'auto'), {
    engine: 'mms',
    notes: ['language "yor" has no hmm route: aligned with mms'],
  });
  installTinyModel(join(dir, 'mms'));
  assert.deepEqual(choose('ar', 'auto'), {
    engine: 'mms',
    notes: ['auto: mms for ara (no native hmm model)'],
  });
  assert.deepEqual(choose('en', 'auto'), { engine: 'hmm', notes: [] });
});

test('the plan carries the accepted language: its code as given, its text rules, the IPA rules for IPA', () => {
  const gb = planAlignment('en-GB');
  assert.deepEqual(
    [gb.language.code, gb.language.iso3, gb.language.text?.espeakVoice],
    ['en-GB', 'eng', 'en-gb'],
  );
  const ipa = planAlignment('ace', { inputKind: 'ipa' });
  assert.deepEqual([ipa.backend, ipa.language.info, ipa.language.text?.routes], ['hmm', null, ['ipa-input']]);
  // written text only MMS reads keeps no text rules: its words are romanised as written
  assert.equal(planAlignment('ace').language.text, null);
  assert.throws(
    () => planAlignment('ace', { inputKind: 'ipa', engine: 'mms' }),
    (e: unknown) => e instanceof EngineError && e.code === 'unsupported_option',
  );
  assert.throws(
    () => planAlignment('ace', { engine: 'hmm' }),
    (e: unknown) => e instanceof EngineError && e.code === 'unknown_language',
  );
});

test('hmm is always installed; mms once its model is in the models folder', (t) => {
  const { dir, restore } = useModelsDir(false);
  t.after(restore);
  assert.equal(backendInstalled('hmm'), true);
  assert.equal(backendInstalled('mms'), false);
  installTinyModel(join(dir, 'mms'));
  assert.equal(backendInstalled('mms'), true);
});
