import { test } from 'node:test';
import assert from 'node:assert/strict';
import { auc, eceUnderCalibration, fitIsotonic } from './calibrate.ts';
import { reliability } from './quality-report.ts';
import { calibrateWith } from '../metrics/calibration.ts';

test('the isotonic fit only rises, keeps bins of at least 40 words and puts each at its mean score', () => {
  // hit rate falls then rises with the score: the first two bins must be pooled
  const samples = Array.from({ length: 160 }, (_, i) => ({
    s: i,
    y: i < 40 ? i % 2 : i < 80 ? (i % 4 === 0 ? 1 : 0) : 1,
  }));
  const table = fitIsotonic(samples);
  assert.deepEqual(table, [
    [39.5, 0.375],
    [99.5, 1],
    [139.5, 1],
  ]);
  for (let i = 1; i < table.length; i++) assert.ok(table[i]![1] >= table[i - 1]![1]);
});

test('the calibration interpolates between knots and holds beyond them', () => {
  const table: [number, number][] = [
    [0.2, 0.3],
    [0.6, 0.7],
    [0.8, 0.9],
  ];
  assert.equal(calibrateWith(table, 0), 0.3);
  assert.equal(calibrateWith(table, 0.2), 0.3);
  assert.ok(Math.abs(calibrateWith(table, 0.4) - 0.5) < 1e-12);
  assert.ok(Math.abs(calibrateWith(table, 0.7) - 0.8) < 1e-12);
  assert.equal(calibrateWith(table, 2), 0.9);
  // two words with different scores keep their order where the table rises
  assert.ok(calibrateWith(table, 0.41) > calibrateWith(table, 0.4));
});

test('auc is 1 for a score that ranks every hit first and 0.5 for a constant one', () => {
  assert.equal(
    auc([
      { s: 0.9, y: 1 },
      { s: 0.1, y: 0 },
    ]),
    1,
  );
  assert.equal(
    auc([
      { s: 0.5, y: 1 },
      { s: 0.5, y: 0 },
    ]),
    0.5,
  );
});

test('a few dozen words give a calibrated confidence an ECE near 0.06 by chance alone', () => {
  // 42 words at 0.55, as the IPA dev set: the expected ECE of a perfect table is about 0.8 * sqrt(p(1-p)/n)
  const few = Array.from({ length: 42 }, () => ({ p: 0.55, y: 0 }));
  const n = eceUnderCalibration(few, 500);
  assert.ok(n.mean > 0.045 && n.mean < 0.08, `mean ${n.mean}`);
  assert.ok(n.p95 > n.mean);
  // thousands of words bring it down by the square root of their number
  const many = Array.from({ length: 4200 }, () => ({ p: 0.55, y: 0 }));
  assert.ok(eceUnderCalibration(many, 200).mean < 0.01);
});

test('a confidence that is far off lies outside the range a calibrated one shows', () => {
  // said 0.9, right half the time
  const pairs = Array.from({ length: 200 }, (_, i) => ({ p: 0.9, y: i % 2 }));
  const e = reliability(pairs).ece;
  assert.ok(Math.abs(e - 0.4) < 1e-9);
  assert.ok(e > eceUnderCalibration(pairs, 500).p95);
});
