// A long recording whose transcript lacks three sentences at three places, on soundswallower's npm English
// model alone (the Debian model hidden, as on a machine where `npm install` is all that ran): timit-dev's
// 80 sentences (233 s, the long path) less the text of 20-22, 40-42 and 60-62. The window holding the
// first missing sentences placed well its speech before them, then the text's next words on them: it
// skipped 11 % of the words it ran through, under the 15 % that says a path ran ahead, and every later
// window started ahead of its speech (64 words not found, 342 of 600 within half a second, mismatch).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { align } from '../engine.ts';
import { joinedSet, leftOutAtThreePlaces } from '@tazamun/aligner/testing/joined-set';

process.env.TAZAMUN_SYSTEM_MODELS = 'off';

test('a long recording whose text lacks sentences, on the npm model: the words after them are placed where they are said', async () => {
  const {
    samples,
    text,
    words: ref,
  } = await joinedSet('timit-dev', {
    textLeftOut: leftOutAtThreePlaces(3),
  });
  assert.ok(samples.length / 16000 > 200, `${samples.length / 16000} s`);
  const res = await align(samples, text, { lang: 'en' });
  // the reference splits hyphenated words (semi-heights: semi, heights): a word against the first of them
  let r = 0;
  const near = res.words.filter((w) => {
    const at = ref[r]!;
    r += w.word.split('-').length;
    return w.start !== null && Math.abs(w.start - at.start) < 0.5;
  });
  assert.equal(r, ref.length);
  assert.ok(
    near.length >= 0.9 * res.words.length,
    `${near.length} of ${res.words.length} words within 0.5 s`,
  );
  const notFound = res.words.filter((w) => w.start === null).length;
  assert.ok(notFound <= 10, `${notFound} words not found`);
  const last = res.words.filter((w) => w.end !== null).at(-1)!;
  assert.ok(Math.abs(last.end! - ref.at(-1)!.end) < 1, `the last word ends at ${last.end}`);
  assert.equal(res.quality.verdict, 'partial');
  assert.ok(res.quality.reasons.some((x) => x.code === 'untranscribed_speech'));
});
