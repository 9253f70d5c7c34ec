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
    refineEdges([span(0, 0.43, 0.72, first)], energyTrack(x), 1.02, DEFAULT_REFINE, () =>
      fricationTrack(x),
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
  const out = refineEdges(spans, energyTrack(x), 1.02, DEFAULT_REFINE, () => fricationTrack(x));
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
