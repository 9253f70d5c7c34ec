// A word list read three times in one long recording, on soundswallower's npm English model alone (the
// Debian model hidden, as on a machine where `npm install` is all that ran): the model fits the IPA words
// poorly, and the first pass's first window placed two words of the list on some spoken words, committing
// words the speaker had not reached. The next window then began 31 words into its text and matched the
// audio with the list's second reading.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { align } from '../engine.ts';
import { joinedSet } from '@tazamun/aligner/testing/joined-set';

process.env.TAZAMUN_SYSTEM_MODELS = 'off';

test('a word list read three times (130 s, the long path): each reading keeps its own words', async () => {
  const { samples, text, words: ref } = await joinedSet('ar-voxangeles-aeb', { readings: 3 });
  assert.ok(samples.length / 16000 > 100, `${samples.length / 16000} s`);
  const res = await align(samples, text, { lang: 'ar', inputKind: 'ipa' });
  assert.equal(res.words.length, ref.length);
  // within a second and a half of its reference start: in its own reading, near its own word (a word of
  // the list lasts about a second). Before: 38 of 126, 40 words not found, the others 20-40 s off.
  const near = res.words.filter((w, i) => w.start !== null && Math.abs(w.start - ref[i]!.start) < 1.5);
  assert.ok(near.length >= 0.8 * ref.length, `${near.length} of ${ref.length} words in their own reading`);
  const notFound = res.words.filter((w) => w.start === null).length;
  assert.ok(notFound <= 5, `${notFound} words not found`);
  assert.notEqual(res.quality.verdict, 'mismatch');
});
