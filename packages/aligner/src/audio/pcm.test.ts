import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PcmFile, pcmWindow, Samples, toFloat32, toS16, zeroDither } from './pcm.ts';
import { energyTrack, fricationTrack } from '../align/refine.ts';
import { frameLevels, measureAudio } from './measure.ts';

const ints = Int16Array.from({ length: 4000 }, (_, i) =>
  i % 500 < 100 ? 0 : Math.round(8000 * Math.sin(i / 7)),
);
const floats = toFloat32(ints);
/** windows read in both stores: whole, inside, past the end, before the start, empty */
const CUTS = [
  [0, 4000],
  [37, 1234],
  [3990, 5000],
  [-5, 10],
  [200, 200],
] as const;

test('16-bit and float storage read the same windows, dithered or not', () => {
  for (const dither of [false, true]) {
    const a = new Samples(ints, dither);
    const b = new Samples(floats, dither);
    assert.equal(a.length, b.length);
    for (const [from, to] of CUTS)
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

test('samples kept in a file read the same windows, pieces and copies as in memory, and leave no file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tz-pcmfile-'));
  try {
    const file = PcmFile.write(ints, dir);
    // unlinked once opened: nothing is left behind even if the process dies before close()
    assert.deepEqual(readdirSync(dir), []);
    for (const dither of [false, true]) {
      const a = new Samples(ints, dither);
      const b = new Samples(file, dither);
      assert.equal(b.length, a.length);
      for (const [from, to] of CUTS)
        assert.deepEqual(b.window(from, to), a.window(from, to), `${from}-${to} dither ${dither}`);
      // a piece knows where it sits: its zeros get the dither of their place in the whole recording
      const pa = a.piece(1000, 3000);
      const pb = b.piece(1000, 3000);
      assert.equal(pb.origin, 1000);
      assert.deepEqual(pb.all(), pa.all());
      assert.deepEqual(pb.piece(10, 400).all(), a.window(1010, 1400));
      assert.deepEqual(b.copy(), ints);
    }
    const s = new Samples(file, true);
    s.close();
    assert.throws(() => s.window(0, 10), /closed/);
    s.close();
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('energies over more than a chunk of frames are those of one pass, from memory or a file', () => {
  // 70 s: the track reads a minute of frames at a time
  const long = Int16Array.from({ length: 70 * 16000 }, (_, i) =>
    i % 16000 < 3000 ? 0 : Math.round(6000 * Math.sin(i / 5) * Math.sin(i / 9000)),
  );
  const dir = mkdtempSync(join(tmpdir(), 'tz-pcmfile-'));
  try {
    const inFile = new Samples(PcmFile.write(long, dir), true);
    const whole = energyTrack(long, true);
    // frame by frame over the whole array, as the track was before it read chunks (10 ms every 5 ms)
    const reference = (emphasis: number) => {
      const n = Math.floor((long.length - 160) / 80) + 1;
      const out = new Float32Array(n);
      for (let f = 0; f < n; f++) {
        let s = 0;
        let prev = f > 0 ? long[f * 80 - 1]! / 32768 : 0;
        for (let i = 0; i < 160; i++) {
          const v = long[f * 80 + i]! / 32768;
          s += (v - emphasis * prev) ** 2;
          prev = v;
        }
        out[f] = 10 * Math.log10(s / 160 + 1e-10);
      }
      return out;
    };
    assert.deepEqual(energyTrack(long), reference(0));
    assert.deepEqual(fricationTrack(long), reference(0.95));
    assert.deepEqual(energyTrack(inFile), whole);
    assert.deepEqual(fricationTrack(inFile), fricationTrack(long, true));
    // a stretch of frames (refine.ts reads the first word's surroundings only) is the whole track's, across
    // a chunk's edge and up to the end
    const hf = fricationTrack(inFile);
    for (const [from, to] of [
      [0, 500],
      [11_900, 12_300],
      [13_000, Infinity],
    ] as const)
      assert.deepEqual(fricationTrack(inFile, false, from, to), hf.slice(from, to));
    assert.equal(fricationTrack(inFile, false, hf.length + 5, Infinity).length, 0);
    inFile.close();
  } finally {
    rmSync(dir, { recursive: true });
  }
});
