import { test } from 'node:test';
import assert from 'node:assert/strict';
import { frameLevels, frameTilts } from '../audio/measure.ts';
import { seeded } from '../bench/common.ts';
import { analyseSpeech } from './speech.ts';

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
