import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pcmWindow, Samples, toFloat32, toS16, zeroDither } from './pcm.ts';
import { energyTrack } from '../align/refine.ts';
import { frameLevels, measureAudio } from './measure.ts';

const ints = Int16Array.from({ length: 4000 }, (_, i) =>
  i % 500 < 100 ? 0 : Math.round(8000 * Math.sin(i / 7)),
);
const floats = toFloat32(ints);

test('16-bit and float storage read the same windows, dithered or not', () => {
  for (const dither of [false, true]) {
    const a = new Samples(ints, dither);
    const b = new Samples(floats, dither);
    assert.equal(a.length, b.length);
    for (const [from, to] of [
      [0, 4000],
      [37, 1234],
      [3990, 5000],
      [-5, 10],
    ] as const)
      assert.deepEqual(a.window(from, to), b.window(from, to), `${from}-${to} dither ${dither}`);
  }
});

test('a zero is dithered by its position in the file, however the window is cut', () => {
  const s = new Samples(ints, true);
  const whole = s.all();
  assert.deepEqual(s.window(50, 70), whole.subarray(50, 70));
  for (let i = 0; i < 100; i++) {
    assert.notEqual(whole[i], 0);
    // about one 16-bit step: below -90 dBFS
    assert.ok(Math.abs(whole[i]!) <= 1 / 32768, `${whole[i]}`);
    assert.equal(whole[i], Math.fround(zeroDither(i)));
  }
  // the stored samples are left as they were
  assert.equal(ints[0], 0);
  assert.equal(floats[0], 0);
});

test('float samples without zeros to dither are read as views, not copies', () => {
  const noZeros = Float32Array.from({ length: 100 }, (_, i) => 0.1 + i / 1000);
  const w = pcmWindow(noZeros, 10, 20, true);
  assert.equal(w.buffer, noZeros.buffer);
  assert.notEqual(pcmWindow(floats, 0, 200, true).buffer, floats.buffer);
});

test('levels and energies are the same from either storage', () => {
  assert.deepEqual(frameLevels(ints), frameLevels(floats));
  assert.deepEqual(energyTrack(ints, true), energyTrack(floats, true));
  const a = measureAudio(ints);
  const b = measureAudio(floats);
  assert.deepEqual({ ...a, frameDb: [], frameTiltDb: [] }, { ...b, frameDb: [], frameTiltDb: [] });
  assert.deepEqual(a.frameTiltDb, b.frameTiltDb);
});

test('floats round to 16 bits to nearest, ties to even, clipped', () => {
  assert.equal(toS16(0.5 / 32768), 0);
  assert.equal(toS16(1.5 / 32768), 2);
  assert.equal(toS16(-2.5 / 32768), -2);
  assert.equal(toS16(1), 32767);
  assert.equal(toS16(-1.2), -32768);
  assert.equal(toS16(1000.4 / 32768), 1000);
});
