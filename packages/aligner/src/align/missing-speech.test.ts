// A long recording whose transcript lacks sentences: the Arabic synthetic set (125 s, the long path) with
// one sentence's text left out at a quarter, half and three quarters of it. The first pass placed the next
// words on that speech and every later window started ahead of its speech: the text ran out 32 s before
// the speech, 28 % of the words within half a second of their place, verdict mismatch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { align } from '../engine.ts';
import { onThreads } from '@tazamun/aligner/testing/thread-jobs';
import { joinedSet, leftOutAtThreePlaces } from '@tazamun/aligner/testing/joined-set';

test('a long recording whose text lacks a sentence at three places: the words after each are placed where they are said', async () => {
  // the recordings at a quarter, half and three quarters of the set
  const {
    samples,
    text,
    words: ref,
  } = await joinedSet('ar-synthetic', {
    textLeftOut: leftOutAtThreePlaces(1),
  });
  assert.ok(samples.length / 16000 > 100, `${samples.length / 16000} s`);
  const res = await align(samples, text, { lang: 'ar' });
  assert.equal(res.words.length, ref.length);
  const placed = res.words.filter((w) => w.start !== null);
  const last = placed[placed.length - 1]!;
  assert.ok(
    Math.abs(last.end! - ref[ref.length - 1]!.end) < 1,
    `the last word ends at ${last.end}, its reference at ${ref[ref.length - 1]!.end}`,
  );
  const near = res.words.filter((w, i) => w.start !== null && Math.abs(w.start - ref[i]!.start) < 0.5);
  assert.ok(near.length >= 0.75 * ref.length, `${near.length} of ${ref.length} words within 0.5 s`);
  assert.equal(res.quality.verdict, 'partial');
  assert.ok(res.quality.reasons.some((r) => r.code === 'untranscribed_speech'));
});

test('a sentence missing from the text inside one window: the words after it are placed where they are said', async () => {
  // fr-librivox-mfa read three times (145 s) less the text of the recordings at a quarter, half and three
  // quarters of it. The last missing sentence (6 s) lies inside one first-pass window, whose path placed
  // the text's next words on it and was back on its speech before the window's end, so the next window
  // could not tell: 26 words 0.5-7 s early, 332 of 365 within half a second.
  const {
    samples,
    text,
    words: ref,
  } = await joinedSet('fr-librivox-mfa', {
    readings: 3,
    textLeftOut: leftOutAtThreePlaces(1),
  });
  const res = await align(samples, text, { lang: 'fr' });
  assert.equal(res.words.length, ref.length);
  const near = res.words.filter((w, i) => w.start !== null && Math.abs(w.start - ref[i]!.start) < 0.5);
  assert.ok(near.length >= 0.95 * ref.length, `${near.length} of ${ref.length} words within 0.5 s`);
  assert.equal(res.quality.verdict, 'partial');
  assert.ok(res.quality.reasons.some((r) => r.code === 'untranscribed_speech'));
});

test('a transcript of every other recording (one side of an interview): words in order, none overlapping', async () => {
  // The Arabic synthetic set (125 s) with the text of every second recording left out: the speech the
  // transcript lacks recurs every few seconds. Two merges of neighbouring pieces in a row put words 55-70
  // inside the stretch of words 37-54 (word 55 at 47.2 s, word 54 at 67.0 s): the second merge's stretch
  // began where its pieces did, inside the first merge's words. Most words after the
  // third missing stretch are still placed seconds early (the first pass hops onto the missing speech;
  // docs/benchmarks.md): 44 of 94 within half a second.
  const {
    samples,
    text,
    words: ref,
  } = await joinedSet('ar-synthetic', {
    textLeftOut: (i) => i % 2 === 1,
  });
  const res = await align(samples, text, { lang: 'ar' });
  assert.equal(res.words.length, ref.length);
  let previous = -Infinity;
  for (const w of res.words) {
    if (w.start === null) continue;
    assert.ok(w.start >= previous - 1e-6, `word ${w.index} starts at ${w.start}, before ${previous}`);
    previous = w.end!;
  }
  const near = res.words.filter((w, i) => w.start !== null && Math.abs(w.start - ref[i]!.start) < 0.5);
  assert.ok(near.length >= 0.4 * ref.length, `${near.length} of ${ref.length} words within 0.5 s`);
  assert.notEqual(res.quality.verdict, 'good');
  assert.ok(res.quality.reasons.some((r) => r.code === 'untranscribed_speech'));
});

test('one side of an interview in English: the words after an untranscribed stretch are placed where they are said', async () => {
  // timit-dev (233 s) with every second recording's text left out. The search put the first words after
  // some untranscribed stretches early, on that speech, fitting badly, while the loop between words took
  // their own audio: "No manufacturer" 3.0 and 1.3 s early, "Woe betide" 2.4 and 2.2 s (align/reseat.ts).
  const {
    samples,
    text,
    words: ref,
  } = await joinedSet('timit-dev', {
    textLeftOut: (i) => i % 2 === 1,
  });
  const res = await align(samples, text, { lang: 'en' });
  const norm = (w: string) => w.toLowerCase().replace(/[^a-z']/g, '');
  for (const [first, second] of [
    ['no', 'manufacturer'],
    ['woe', 'betide'],
  ] as const) {
    const k = res.words.findIndex(
      (w, i) => norm(w.word) === first && norm(res.words[i + 1]?.word ?? '') === second,
    );
    const r = ref.findIndex((w, i) => w.w === first && ref[i + 1]?.w === second);
    assert.ok(k >= 0 && r >= 0, `"${first} ${second}" in the result and the reference`);
    for (const d of [0, 1]) {
      const w = res.words[k + d]!;
      const expected = ref[r + d]!.start;
      assert.ok(
        w.start !== null && Math.abs(w.start - expected) < 0.1,
        `"${w.word}" starts at ${w.start}, its reference at ${expected}`,
      );
    }
  }
});

test('one side of an interview on two threads: the searches of words placed on untranscribed speech are shared, the result is one thread’s', async () => {
  // The same recording (timit-dev, every second recording's text left out): align/reseat.ts's searches go
  // to the piece thread while this one judges them in turn. On the 3-hour file they were 667 searches,
  // 11 s on one thread after the pieces were done, while the other thread waited.
  const { samples, text } = await joinedSet('timit-dev', { textLeftOut: (i) => i % 2 === 1 });
  const one = await align(samples, text, { lang: 'en', threads: 1 });
  // the searches with a loop before their first word that the other thread ran (not taken back)
  const { result: two, total: looped } = await onThreads(
    (job) => (job.leadingLoop ? 1 : 0),
    () => align(samples, text, { lang: 'en', threads: 2 }),
  );
  assert.ok(looped > 0, 'the other thread ran none of the searches');
  assert.deepEqual(
    two.words.map((w) => [w.start, w.end, w.confidence]),
    one.words.map((w) => [w.start, w.end, w.confidence]),
  );
});

test('a long recording that goes from a quiet room to a noisy one, with its whole text: little speech is left untranscribed', async () => {
  // timit-dev's 80 recordings (233 s, quiet) then en-mfa-testdata's three (77 s, hoarse and noisy), one file.
  // Read against the whole file's quietest tenth, the noisy stretch was speech throughout: 279.9 s of
  // speech (the two sets alone hold 234.1 s), 16.0 s of it untranscribed, an estimated WER of 0.143
  // (metrics/speech.ts, ADR 0112).
  const parts = await Promise.all(['timit-dev', 'en-mfa-testdata'].map((s) => joinedSet(s)));
  const samples = new Float32Array(parts.reduce((a, p) => a + p.samples.length, 0));
  let at = 0;
  for (const p of parts) {
    samples.set(p.samples, at);
    at += p.samples.length;
  }
  const res = await align(samples, parts.map((p) => p.text).join('\n'), { lang: 'en', threads: 1 });
  assert.equal(res.quality.verdict, 'good');
  assert.ok(res.metrics.words_aligned >= 0.99 * res.metrics.words_total);
  assert.ok(res.metrics.speech_seconds < 255, `speech ${res.metrics.speech_seconds} s`);
  assert.ok(
    res.metrics.untranscribed_speech_seconds < 10,
    `untranscribed ${res.metrics.untranscribed_speech_seconds} s`,
  );
  assert.ok(res.metrics.wer! < 0.13, `estimated WER ${res.metrics.wer}`);
});
