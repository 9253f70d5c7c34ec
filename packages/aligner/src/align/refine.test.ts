import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UnitSpan } from '../acoustic/backend.ts';
import { seeded } from '../bench/common.ts';
import { DEFAULT_REFINE, energyTrack, fricationTrack, refineEdges } from './refine.ts';

const RATE = 16000;

/** 0.3 s of faint hum, 120 ms of weak hiss (frication), 300 ms of a loud 200 Hz vowel, 0.3 s of hum. */
function fricativeThenVowel(): Float32Array {
  const rnd = seeded(5);
  const x = new Float32Array(Math.round(1.02 * RATE));
  for (let i = 0; i < x.length; i++) {
    const t = i / RATE;
    let v = 0.0005 * Math.sin(2 * Math.PI * 50 * t) + 0.0002 * (rnd() * 2 - 1);
    if (t >= 0.3 && t < 0.42) v += 0.01 * (rnd() * 2 - 1);
    if (t >= 0.42 && t < 0.72) v += 0.25 * Math.sin(2 * Math.PI * 200 * t);
    x[i] = v;
  }
  return x;
}

const span = (unit: number, start: number, end: number, first: string): UnitSpan => ({
  unit,
  start,
  end,
  confidence: 0.9,
  phones: [
    { phone: first, start, end: start + 0.1, confidence: 0.9 },
    { phone: 'AA', start: start + 0.1, end, confidence: 0.9 },
  ],
});

test('a first word that begins with a fricative starts where its frication starts, not at its vowel', () => {
  const x = fricativeThenVowel();
  const refine = (first: string) =>
    refineEdges([span(0, 0.43, 0.72, first)], energyTrack(x), 1.02, DEFAULT_REFINE, (from, to) =>
      fricationTrack(x, false, from, to),
    )[0]!;
  const s = refine('S');
  assert.ok(Math.abs(s.start - 0.3) <= 0.011, `start ${s.start}`);
  // the phone tier follows: the first phone starts with the word
  assert.equal(s.phones[0]!.start, s.start);
  // a vowel-initial word moves at most the usual 40 ms outward from where the search put it
  const v = refine('AA');
  assert.ok(v.start >= 0.43 - DEFAULT_REFINE.maxOutward - 0.003, `start ${v.start}`);
});

test('a later word is not walked back over what precedes it', () => {
  const x = fricativeThenVowel();
  const spans = [span(0, 0.05, 0.2, 'AA'), span(1, 0.43, 0.72, 'S')];
  const out = refineEdges(spans, energyTrack(x), 1.02, DEFAULT_REFINE, (from, to) =>
    fricationTrack(x, false, from, to),
  );
  assert.ok(out[1]!.start >= 0.43 - DEFAULT_REFINE.maxOutward - 0.003, `start ${out[1]!.start}`);
});

test('the plain energy track is the frication track without pre-emphasis', () => {
  const x = fricativeThenVowel();
  const plain = energyTrack(x);
  const hf = fricationTrack(x);
  assert.equal(plain.length, hf.length);
  // in the hiss the pre-emphasised energy is near the plain one; in the 200 Hz vowel far below it
  const at = (t: number) => Math.round((t * RATE - 80) / 80);
  assert.ok(Math.abs(hf[at(0.36)]! - plain[at(0.36)]!) < 3);
  assert.ok(plain[at(0.55)]! - hf[at(0.55)]! > 15);
});

test('in a long recording the first word’s frication is read from the stretch around it, not the whole track', () => {
  // the same fricative and vowel 700 s into a 20-minute recording of faint hum
  const word = fricativeThenVowel();
  const rnd = seeded(7);
  const x = new Float32Array(1200 * RATE);
  for (let i = 0; i < x.length; i++)
    x[i] = 0.0005 * Math.sin((2 * Math.PI * 50 * i) / RATE) + 0.0002 * (rnd() * 2 - 1);
  x.set(word, 700 * RATE);
  const asked: [number, number][] = [];
  const [s] = refineEdges(
    [span(0, 700.43, 700.72, 'S')],
    energyTrack(x),
    1200,
    DEFAULT_REFINE,
    (from, to) => {
      asked.push([from, to]);
      return fricationTrack(x, false, from, to);
    },
  );
  assert.ok(Math.abs(s!.start - 700.3) <= 0.011, `start ${s!.start}`);
  // ten minutes of 5 ms frames, the word inside them
  assert.equal(asked.length, 1);
  const [from, to] = asked[0]!;
  assert.equal(to - from, 120_000);
  assert.ok(from * 0.005 < 700 && to * 0.005 > 700.43, `frames ${from}-${to}`);
});
