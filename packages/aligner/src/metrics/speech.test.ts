import { test } from 'node:test';
import assert from 'node:assert/strict';
import { frameLevels, frameTilts } from '../audio/measure.ts';
import { seeded } from '../bench/common.ts';
import { analyseSpeech, untranscribedSpeech } from './speech.ts';

const RATE = 16000;

/** 0.5 s of faint noise, then `body` seconds drawn by `at(t)`. */
function signal(body: number, at: (t: number) => number): Float32Array {
  const rnd = seeded(9);
  const x = new Float32Array(Math.round((0.5 + body) * RATE));
  for (let i = 0; i < x.length; i++) {
    const t = i / RATE;
    x[i] = 1e-4 * (rnd() * 2 - 1) + (t >= 0.5 ? at(t - 0.5) : 0);
  }
  return x;
}

const analyse = (x: Float32Array) => analyseSpeech(frameLevels(x), frameTilts(x));

test('a tone after a quiet start is a steady sound, not speech', () => {
  const a = analyse(signal(2, (t) => 0.3 * Math.sin(2 * Math.PI * 440 * t)));
  assert.equal(a.steady, true);
  assert.equal(a.speechSeconds, 0);
});

test("sounds that hold their level but change timbre, as a formant synthesizer's vowels do, are speech", () => {
  // 120 ms "vowels" alternating between a low and a high resonance at the same level
  const x = signal(2, (t) => {
    const f = Math.floor(t / 0.12) % 2 === 0 ? 300 : 2500;
    return 0.2 * Math.sin(2 * Math.PI * f * t);
  });
  const a = analyse(x);
  assert.equal(a.steady, false);
  assert.ok(a.speechSeconds > 1.5, `speech ${a.speechSeconds}`);
  // level alone cannot tell it from a tone
  assert.equal(analyseSpeech(frameLevels(x)).steady, true);
});

/**
 * A read phrase, drawn: syllables of 160 ms whose level rises to a loud nucleus from weak 40 ms edges
 * (22 dB under it, 10 dB over the noise), 60 ms pauses between them, and 0.5 s of noise alone before
 * and after.
 */
function phrase(syllables: number): Float32Array {
  const rnd = seeded(4);
  const syl = 0.16;
  const pause = 0.06;
  const body = syllables * (syl + pause);
  const x = new Float32Array(Math.round((1 + body) * RATE));
  for (let i = 0; i < x.length; i++) {
    const t = i / RATE - 0.5;
    let a = 0;
    if (t >= 0 && t < body) {
      const k = Math.floor(t / (syl + pause));
      const u = t - k * (syl + pause);
      const f = k % 2 === 0 ? 300 : 900;
      if (u < syl) a = (u < 0.04 || u >= syl - 0.04 ? 0.008 : 0.1) * Math.sin(2 * Math.PI * f * t);
    }
    x[i] = 3e-3 * (rnd() * 2 - 1) + a;
  }
  return x;
}

test('the speech holds its syllables whole and the short pauses between them, not only their loud frames', () => {
  const a = analyse(phrase(10)); // 2.2 s of speech, 0.8 s of it loud nuclei
  let loud = 0;
  for (const v of a.frames) loud += v;
  assert.ok(loud / 100 < 1, `loud frames ${loud / 100} s`);
  assert.ok(Math.abs(a.speechSeconds - 2.14) <= 0.1, `speech ${a.speechSeconds} s`);
  // the faint noise before and after stays out
  assert.equal(
    a.regions.slice(0, 45).reduce((s, v) => s + v, 0),
    0,
  );
  assert.equal(
    a.regions.slice(-45).reduce((s, v) => s + v, 0),
    0,
  );
});

test('clicks are not speech', () => {
  const rnd = seeded(5);
  const x = new Float32Array(3 * RATE);
  for (let i = 0; i < x.length; i++) x[i] = 1e-4 * (rnd() * 2 - 1);
  for (let c = 0.5; c < 2.9; c += 0.3)
    for (let i = 0; i < 80; i++) x[Math.round(c * RATE) + i] = 0.5 * (rnd() * 2 - 1);
  const a = analyse(x);
  assert.ok(
    a.frames.some((v) => v === 1),
    'the clicks are loud',
  );
  assert.equal(a.speechSeconds, 0);
});

test('untranscribed speech counts the whole of the speech no word took, whatever share of it is loud', () => {
  const a = analyse(phrase(20)); // syllable k at 0.5 + 0.22 k s
  // a transcript of the first 10 syllables only
  const words = [0, 2, 4, 6, 8].map((k) => ({
    start: 0.5 + 0.22 * k + 0.02,
    end: 0.5 + 0.22 * (k + 2) - 0.08,
  }));
  const missed = untranscribedSpeech(a, words);
  // the last ten syllables: 2.14 s, less the 0.1 s margin after the last word; all after the last word
  assert.ok(Math.abs(missed.seconds - 2.04) <= 0.12, `untranscribed ${missed.seconds} s`);
  assert.equal(missed.innerSeconds, 0);
  assert.equal(missed.longestSeconds, missed.seconds, 'one stretch');
  // the same words with syllables 4 to 13 left out between them: the speech left out is inner
  const gapped = [0, 2, 14, 16, 18].map((k) => ({
    start: 0.5 + 0.22 * k + 0.02,
    end: 0.5 + 0.22 * (k + 2) - 0.08,
  }));
  const between = untranscribedSpeech(a, gapped);
  assert.ok(Math.abs(between.seconds - 2) <= 0.15, `untranscribed ${between.seconds} s`);
  assert.equal(between.innerSeconds, between.seconds);
  // two stretches left out: the longest is one of them, not their sum
  const two = untranscribedSpeech(
    a,
    [0, 6, 12, 18]
      .map((k) => ({
        start: 0.5 + 0.22 * k + 0.02,
        end: 0.5 + 0.22 * k + 0.2,
      }))
      .filter((_, i) => i !== 1),
  );
  assert.ok(two.longestSeconds > 0 && two.longestSeconds < two.seconds, JSON.stringify(two));
  assert.deepEqual(untranscribedSpeech(a, [{ start: 0.5, end: 0.5 + 0.22 * 20 }]), {
    seconds: 0,
    innerSeconds: 0,
    longestSeconds: 0,
  });
  // a word not found covers nothing, and there is no first or last placed word to be between
  const none = untranscribedSpeech(a, [{ start: null, end: null }]);
  assert.ok(none.seconds > 4);
  assert.equal(none.innerSeconds, 0);
});
