import { test } from 'node:test';
import assert from 'node:assert/strict';
import { frameLevels, frameTilts } from '../audio/measure.ts';
import { seeded } from '../bench/common.ts';
import {
  ACTIVE_ABOVE_FLOOR_DB,
  FLOOR_SPAN_SECONDS,
  analyseSpeech,
  localFloors,
  speechIn,
  untranscribedSpeech,
} from './speech.ts';

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

/**
 * `seconds` of read phrases (2.2 s of the syllables `phrase` draws, then 0.8 s of pause) over noise of
 * `noise` amplitude, the loud nuclei at `loud`.
 */
function phrases(seconds: number, noise: number, loud: number, seed: number): Float32Array {
  const rnd = seeded(seed);
  const x = new Float32Array(Math.round(seconds * RATE));
  for (let i = 0; i < x.length; i++) {
    const t = (i / RATE) % 3;
    let a = 0;
    if (t < 2.2) {
      const k = Math.floor(t / 0.22);
      const u = t - k * 0.22;
      const f = k % 2 === 0 ? 300 : 900;
      if (u < 0.16) a = (u < 0.04 || u >= 0.12 ? loud / 12 : loud) * Math.sin(2 * Math.PI * f * (i / RATE));
    }
    x[i] = noise * (rnd() * 2 - 1) + a;
  }
  return x;
}

test("a long recording's noisy stretch is speech where it rises above its own floor, not throughout", () => {
  // 120 s read in a quiet room (noise about -85 dBFS), then 60 s close to a noisy microphone (about -40
  // dBFS, 15 dB over the quiet stretch's floor and more): the file's quietest tenth is the quiet room's
  const quiet = phrases(120, 1e-4, 0.1, 11);
  const noisy = phrases(60, 0.017, 0.5, 12);
  const x = new Float32Array(quiet.length + noisy.length);
  x.set(quiet);
  x.set(noisy, quiet.length);
  const a = analyse(x);
  // each phrase is 2.2 s of every 3 s, with its edges (EDGE_SECONDS) about 2.5: under 50 s of the noisy
  // minute, and never its pauses
  const inNoisy = speechIn(a.regions, 121, 179);
  assert.ok(inNoisy > 35 && inNoisy < 50, `speech in the noisy minute ${inNoisy} s`);
  // its pauses are not speech, but for the first 20 s, whose minute still holds enough of the quiet room's
  // pauses to set its floor
  let pausesHeard = 0;
  for (let t = 141; t < 180; t += 3) pausesHeard += speechIn(a.regions, t - 0.65, t - 0.15);
  assert.equal(pausesHeard, 0, 'the pauses of the noisy minute are not speech');
  // read against the whole file's floor, the noisy minute was speech throughout
  const whole = Float32Array.from(frameLevels(x)).sort()[Math.floor(a.regions.length * 0.1)]!;
  assert.ok(whole < -80, `the file's quietest tenth ${whole} dB`);
  // the quiet stretch reads as it reads alone, but for the seconds whose minute reaches the noisy one
  const alone = analyse(quiet);
  assert.equal(speechIn(a.regions, 0, 90), speechIn(alone.regions, 0, 90));
});

test('a recording up to FLOOR_SPAN_SECONDS has one floor, its quietest tenth read exactly', () => {
  const rnd = seeded(3);
  const n = FLOOR_SPAN_SECONDS * 100;
  const levels = Float32Array.from({ length: n }, () => -90 + 60 * rnd());
  const sorted = Float32Array.from(levels).sort();
  const f = localFloors(levels, sorted);
  assert.equal(f.values.length, 1);
  assert.equal(f.values[0], sorted[Math.floor(n * 0.1)]);
  assert.ok(f.block >= n);
});

test("a longer recording's floor is each block's minute's quietest tenth, to within half a bin (0.025 dB)", () => {
  const rnd = seeded(8);
  // five minutes whose floor climbs by 30 dB
  const n = 5 * 60 * 100;
  const levels = Float32Array.from({ length: n }, (_, i) => -90 + (30 * i) / n + 40 * rnd());
  const f = localFloors(levels, Float32Array.from(levels).sort());
  assert.equal(f.values.length, Math.ceil(n / f.block));
  const span = FLOOR_SPAN_SECONDS * 100;
  for (const b of [0, 1, 17, 150, 290, f.values.length - 1]) {
    const a = Math.min(n - span, Math.max(0, Math.round(b * f.block + f.block / 2 - span / 2)));
    const exact = Float32Array.from(levels.subarray(a, a + span)).sort()[Math.floor(span * 0.1)]!;
    assert.ok(Math.abs(f.values[b]! - exact) <= 0.025 + 1e-6, `block ${b}: ${f.values[b]} against ${exact}`);
  }
  // the floor follows the climb
  assert.ok(f.values[f.values.length - 1]! - f.values[0]! > 20);
});

test('the threshold is the floor plus 15 dB in double precision: a frame just under it is not loud', () => {
  // a floor above -10 dBFS (loud noise) whose floor + 15 dB a float cannot hold: the nearest float under it
  let floor = -9.5;
  while (
    Math.fround(Math.fround(floor) + ACTIVE_ABOVE_FLOOR_DB) >=
    Math.fround(floor) + ACTIVE_ABOVE_FLOOR_DB
  )
    floor += 0.0001;
  const f = Math.fround(floor);
  const under = Math.fround(f + ACTIVE_ABOVE_FLOOR_DB);
  assert.ok(under < f + ACTIVE_ABOVE_FLOOR_DB);
  // loud frames that rise and fall around it (not a steady sound), the floor's frames around them
  const levels = new Float32Array(50).fill(f);
  for (let k = 20; k < 31; k++) levels[k] = k === 25 ? under : f + (k % 2 ? 25 : 30);
  const { frames, steady } = analyseSpeech(levels);
  assert.equal(steady, false);
  assert.equal(frames[24], 1);
  assert.equal(frames[25], 0);
});
