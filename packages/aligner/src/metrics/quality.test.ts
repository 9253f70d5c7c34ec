import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WordTiming } from '@tazamun/contracts/alignment-result';
import { assessQuality } from './quality.ts';
import type { QualityInput } from './quality.ts';

/** Ten words of 0.3 s from 1 s on, all placed and fitting; 10 s of audio, 8 s of it speech. */
function input(over: Partial<QualityInput>): QualityInput {
  const words: WordTiming[] = Array.from({ length: 10 }, (_, i) => ({
    index: i,
    word: `word${i}`,
    normalized: `word${i}`,
    start: 1 + 0.35 * i,
    end: 1.3 + 0.35 * i,
    duration: 0.3,
    confidence: 0.9,
    status: 'aligned',
    phones: [],
    char_start: 6 * i,
    char_end: 6 * i + 5,
  }));
  return {
    words,
    fits: words.map(() => true),
    speech: { frames: new Uint8Array(0), regions: new Uint8Array(0), speechSeconds: 8, steady: false },
    untranscribedSeconds: 0,
    untranscribedInnerSeconds: 0,
    duration: 10,
    clippingRatio: 0,
    language: { chosen: 'eng', detected: 'eng', disagrees: false },
    ...over,
  };
}

test('a transcript whose words all fit is good', () => {
  const q = assessQuality(input({}));
  assert.equal(q.quality.verdict, 'good');
  assert.equal(q.wer, 0);
});

test('speech after the last word: a recording that goes on beyond its transcript is partial', () => {
  const q = assessQuality(input({ untranscribedSeconds: 3, untranscribedInnerSeconds: 0 }));
  assert.equal(q.quality.verdict, 'partial');
  assert.deepEqual(
    q.quality.reasons.map((r) => r.code),
    ['untranscribed_speech'],
  );
  // 3 s is 10 words of 0.3 s: ten of the twenty words said are missing
  assert.equal(q.wer, 0.5);
});

test('a long recording whose text starts after 6 s of other speech is partial, though that is a small share of its speech', () => {
  // 600 words over 210 s of speech: 6 s left out before the first word is 3 % of the speech
  const long = (over: Partial<QualityInput>) => {
    const base = input({});
    const words = Array.from({ length: 600 }, (_, i) => ({
      ...base.words[0]!,
      index: i,
      start: 7 + 0.35 * i,
      end: 7.3 + 0.35 * i,
    }));
    return input({
      words,
      fits: words.map(() => true),
      speech: { ...base.speech, speechSeconds: 216 },
      duration: 220,
      ...over,
    });
  };
  const intro = assessQuality(
    long({ untranscribedSeconds: 6, untranscribedInnerSeconds: 0, untranscribedLongestSeconds: 6 }),
  );
  assert.equal(intro.quality.verdict, 'partial');
  assert.deepEqual(
    intro.quality.reasons.map((r) => r.code),
    ['untranscribed_speech'],
  );
  assert.ok(intro.wer! < 0.05, `${intro.wer}`);
  // the same 6 s in stretches of under a second each (breaths, a cough, hesitations): good
  const scattered = assessQuality(
    long({ untranscribedSeconds: 6, untranscribedInnerSeconds: 6, untranscribedLongestSeconds: 0.8 }),
  );
  assert.equal(scattered.quality.verdict, 'good');
});

test('the same speech left out between the words: the transcript does not say what is said', () => {
  const q = assessQuality(input({ untranscribedSeconds: 3, untranscribedInnerSeconds: 3 }));
  assert.equal(q.quality.verdict, 'mismatch');
  assert.equal(q.quality.reasons[0]!.code, 'transcript_mismatch');
  assert.equal(q.wer, 0.5);
});

test('words that do not fit make a mismatch wherever the speech is', () => {
  const q = assessQuality(input({ fits: Array.from({ length: 10 }, (_, i) => i >= 4) }));
  assert.equal(q.quality.verdict, 'mismatch');
  assert.equal(q.wer, 0.4);
  // 3 of 10 is partial
  assert.equal(
    assessQuality(input({ fits: Array.from({ length: 10 }, (_, i) => i >= 3) })).quality.verdict,
    'partial',
  );
});
