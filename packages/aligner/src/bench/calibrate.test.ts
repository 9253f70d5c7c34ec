import { test } from 'node:test';
import assert from 'node:assert/strict';
import { auc, eceUnderCalibration, fitIsotonic, fitPresence } from './calibrate.ts';
import { reliability } from './quality-report.ts';
import type { CaseRecord, WordRecord } from './quality.ts';
import { seeded } from './common.ts';
import { calibrateWith, joinedSameManner, presence, strandedSpeech } from '../metrics/calibration.ts';
import type { WordEvidence } from '../metrics/calibration.ts';

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

const evidence = (over: Partial<WordEvidence>): WordEvidence => ({
  p: 0.9,
  phones: 3,
  seconds: 0.3,
  legacy: 0.8,
  loopHit: null,
  loopN: null,
  ...over,
});

test('an edge joined to a phone of the same manner is told from a pause or a change of manner', () => {
  // a word's last vowel runs into the next word's first vowel
  const vowels = evidence({ edgePhones: ['AO', 'IY'], outerPhones: [null, 'EH'], gaps: [null, 0.02] });
  assert.equal(joinedSameManner(vowels), true);
  // a pause between them marks the edge; so does a change of manner; no neighbour, nothing joined
  assert.equal(joinedSameManner({ ...vowels, gaps: [null, 0.25] }), false);
  assert.equal(joinedSameManner({ ...vowels, outerPhones: [null, 'S'] }), false);
  assert.equal(joinedSameManner(evidence({ edgePhones: ['AO', 'IY'] })), false);
  // "this skirt": fricative into fricative at the start
  const fric = evidence({ edgePhones: ['S', 'T'], outerPhones: ['S', null], gaps: [0, null] });
  assert.equal(joinedSameManner(fric), true);
});

test('the speech beside a word that no word took is summed over both sides and capped', () => {
  assert.equal(strandedSpeech(evidence({})), 0);
  assert.ok(Math.abs(strandedSpeech(evidence({ gapSpeech: [0.05, 0.1] })) - 0.15) < 1e-12);
  assert.equal(strandedSpeech(evidence({ gapSpeech: [1.2, 0.4] })), 0.3);
});

test('presence is fitted with every set weighing the same: repeating the words of one set changes nothing', () => {
  let rnd = seeded(5);
  const word = (gop: number, stranded: number): WordRecord => ({
    word: 'w',
    start: 0,
    end: 0.3,
    cls: 'dictionary',
    evidence: evidence({
      gop,
      phoneGop: gop + 0.2 * (rnd() - 0.5),
      worstGop: gop + rnd(),
      p: Math.exp(-gop * (0.5 + rnd())),
      gapSpeech: [stranded * rnd(), 0],
    }),
    confidence: 0,
    status: 'aligned',
    hit: null,
  });
  const kase = (set: string, kind: 'correct' | 'swapped', words: WordRecord[]): CaseRecord =>
    ({ set, uid: `${set}-${kind}`, kind, words }) as unknown as CaseRecord;
  const make = (copies: number): CaseRecord[] => {
    rnd = seeded(5);
    const big = Array.from({ length: 200 }, () => word(0.5 + rnd(), 0.05));
    const small = Array.from({ length: 30 }, () => word(1.5 + rnd(), 0.1));
    const wrongA = Array.from({ length: 40 }, () => word(2 + 2 * rnd(), 0.3));
    const wrongB = Array.from({ length: 20 }, () => word(2.5 + 2 * rnd(), 0.3));
    return [
      kase('a', 'correct', Array.from({ length: copies }, () => big).flat()),
      kase('b', 'correct', small),
      kase('a', 'swapped', wrongA),
      kase('b', 'swapped', Array.from({ length: copies }, () => wrongB).flat()),
    ];
  };
  // the same words, scored with either fit: the groups keep their presence (the features are
  // standardised over the rows before the ridge, so the weights themselves move a little)
  const cases = make(1);
  const mean = (c: CaseRecord, fit: ReturnType<typeof fitPresence>) =>
    c.words.reduce((a, w) => a + presence(w.evidence!, 'dictionary', fit), 0) / c.words.length;
  const once = fitPresence(cases);
  const thrice = fitPresence(make(3));
  assert.equal(once.dictionary.length, 6);
  for (const c of cases) {
    const [x, y] = [mean(c, once), mean(c, thrice)];
    assert.ok(Math.abs(x - y) < 0.04, `${c.set} ${c.kind}: ${x} vs ${y}`);
  }
  // and the fit tells them apart: correct words present, other recordings' words absent
  assert.ok(mean(cases[1]!, once) > 0.5 && mean(cases[3]!, once) < 0.5);
});
