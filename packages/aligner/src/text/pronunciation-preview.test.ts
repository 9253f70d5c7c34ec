import { test } from 'node:test';
import assert from 'node:assert/strict';
import { previewPronunciations } from './pronunciation-preview.ts';

test('each word gets the source the aligner would take, in its order', async () => {
  const words = await previewPronunciations('She saw Tazamun and Zorblax, and she smiled.', 'eng', {
    lexicon: [{ word: 'Tazamun', ipa: 'tazaˈmun' }],
  });
  assert.deepEqual(
    words.map((w) => [w.word.toLowerCase(), w.source]),
    [
      ['she', 'model_dictionary'],
      ['saw', 'model_dictionary'],
      ['tazamun', 'user_lexicon'],
      ['and', 'model_dictionary'],
      ['zorblax', 'espeak'],
      ['smiled', 'model_dictionary'],
    ],
  );
  assert.equal(words[2]!.ipa, 't a z a m u n');
  // eSpeak's reading, segmented into phones
  assert.equal(words[4]!.ipa, 'z ɔːɹ b l æ k s');
});

test('Arabic words go by the letter rules, other languages by eSpeak', async () => {
  const ar = await previewPronunciations('كَتَبَ', 'ara');
  assert.deepEqual(ar, [{ word: 'كَتَبَ', source: 'rules', ipa: 'k a t a b a' }]);
  // unvowelled: the first reading of each slot, a function word as the grammar reads it
  const plain = await previewPronunciations('على الصحفي', 'ara');
  assert.deepEqual(
    plain.map((w) => w.ipa),
    ['ʕ a l aː', 'ʔ a sˤ sˤ a ħ a f iː'],
  );
  const de = await previewPronunciations('Haus', 'deu');
  assert.equal(de.length, 1);
  assert.equal(de[0]!.source, 'espeak');
  assert.equal(de[0]!.ipa, 'h aʊ s');
});
