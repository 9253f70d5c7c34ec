// Fits the word-confidence calibration (metrics/calibration.ts) from a bench dump, and replays the
// verdict and the WER/CER estimate over the dump with the fitted table, so thresholds can be chosen on
// the same cases without running the aligner again:
//   npm run bench -- --mode quality --raw --dump /tmp/q.json     (aligner, uncalibrated confidences)
//   node --import tsx src/bench/calibrate.ts /tmp/q.json          (prints the table and the figures)
// The fit is deliberately simple so it cannot learn the dev sets by heart: one raw score per word
// (monotone in the evidence), cut into bins of equal counts, made monotone by pool-adjacent-violators
// (isotonic regression), one table per kind of pronunciation. Its held-out error is printed beside the
// in-sample one (2-fold by utterance).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WordTiming } from '@tazamun/contracts/alignment-result';
import {
  calibrateWith,
  fitScore,
  isVowelled,
  presence,
  presenceFeatures,
  rawWordScore,
  scoreFeatures,
  wordFits,
} from '../metrics/calibration.ts';
import type {
  CalibrationClass,
  CalibrationTable,
  PresenceWeights,
  ScoreWeights,
  WordEvidence,
} from '../metrics/calibration.ts';
import { assessQuality } from '../metrics/quality.ts';
import type { CaseRecord } from './quality.ts';
import { seeded } from './common.ts';
import { CALIBRATION_GROUPS, auc, calibrationPairs, qualityReport, reliability } from './quality-report.ts';

export { auc };

/** Minimum words per bin: fewer and the bin's share of hits is noise (25 overfitted Arabic held out). */
const MIN_BIN = 40;
const MAX_BINS = 12;
/** Placed words get at least this: a placed word on clean speech is never "certainly wrong". */
export const FLOOR = 0.02;

interface Sample {
  s: number;
  y: number;
}

/**
 * Pool-adjacent-violators over (score-sorted) samples grouped in equal-count bins; each pooled block
 * becomes a knot at its mean score with its share of hits (calibrateWith interpolates between knots).
 */
export function fitIsotonic(samples: Sample[]): CalibrationTable {
  if (samples.length === 0) return [[0, 0.5]];
  const sorted = [...samples].sort((a, b) => a.s - b.s);
  const nb = Math.max(1, Math.min(MAX_BINS, Math.floor(sorted.length / MIN_BIN)));
  const blocks: { ssum: number; sum: number; n: number }[] = [];
  for (let b = 0; b < nb; b++) {
    const part = sorted.slice(
      Math.floor((b * sorted.length) / nb),
      Math.floor(((b + 1) * sorted.length) / nb),
    );
    blocks.push({
      ssum: part.reduce((a, x) => a + x.s, 0),
      sum: part.reduce((a, x) => a + x.y, 0),
      n: part.length,
    });
  }
  // merge neighbours while a lower bin has a higher rate than the next one
  for (let i = 0; i < blocks.length - 1;) {
    const a = blocks[i]!;
    const c = blocks[i + 1]!;
    if (a.sum / a.n > c.sum / c.n) {
      blocks.splice(i, 2, { ssum: a.ssum + c.ssum, sum: a.sum + c.sum, n: a.n + c.n });
      if (i > 0) i--;
    } else i++;
  }
  const r4 = (x: number) => Math.round(x * 10000) / 10000;
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  return blocks.map((b) => [r4(b.ssum / b.n), r3(Math.max(FLOOR, b.sum / b.n))]);
}

/**
 * A dump word's table. Dumps made before Arabic words without vowels had their own table recorded them as
 * 'arabic'; the class follows from the word as written, as the engine decides it.
 */
export function classOf(w: { cls: CalibrationClass | null; word: string }): CalibrationClass | null {
  return w.cls === 'arabic' && !isVowelled(w.word) ? 'arabic_plain' : w.cls;
}

function samplesOf(
  cases: CaseRecord[],
  cls: CalibrationClass,
  score: (e: WordEvidence) => number,
  withSwapped = false,
): Sample[] {
  return cases
    .filter((c) => c.kind === 'correct' || (withSwapped && c.kind === 'swapped'))
    .flatMap((c) => c.words)
    .filter((w) => classOf(w) === cls && w.evidence && w.hit !== null)
    .map((w) => ({ s: score(w.evidence!), y: w.hit ? 1 : 0 }));
}

/**
 * Logistic regression by Newton's method with a small ridge on the standardised features (the bias is
 * not penalised); the weights come back for the raw features.
 */
export function logisticFit(X: number[][], y: number[], ridge = 1e-2, weight?: number[]): number[] {
  const wt = weight ?? X.map(() => 1);
  const total = wt.reduce((a, b) => a + b, 0);
  const d = X[0]!.length;
  const mu = new Array<number>(d).fill(0);
  const sd = new Array<number>(d).fill(1);
  for (let j = 1; j < d; j++) {
    mu[j] = X.reduce((a, x) => a + x[j]!, 0) / X.length;
    sd[j] = Math.sqrt(X.reduce((a, x) => a + (x[j]! - mu[j]!) ** 2, 0) / X.length) || 1;
  }
  const Z = X.map((x) => x.map((v, j) => (j === 0 ? 1 : (v - mu[j]!) / sd[j]!)));
  let w = new Array<number>(d).fill(0);
  for (let it = 0; it < 30; it++) {
    const g = new Array<number>(d).fill(0);
    const H = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    Z.forEach((z, i) => {
      const p = 1 / (1 + Math.exp(-z.reduce((a, v, j) => a + v * w[j]!, 0)));
      for (let j = 0; j < d; j++) {
        g[j]! += wt[i]! * (p - y[i]!) * z[j]!;
        for (let k = 0; k < d; k++) H[j]![k]! += wt[i]! * p * (1 - p) * z[j]! * z[k]!;
      }
    });
    for (let j = 1; j < d; j++) {
      g[j]! += ridge * total * w[j]!;
      H[j]![j]! += ridge * total;
    }
    // solve H dw = g (Gauss-Jordan with partial pivoting)
    const A = H.map((r, i) => [...r, g[i]!]);
    for (let c = 0; c < d; c++) {
      let piv = c;
      for (let r = c + 1; r < d; r++) if (Math.abs(A[r]![c]!) > Math.abs(A[piv]![c]!)) piv = r;
      [A[c], A[piv]] = [A[piv]!, A[c]!];
      for (let r = 0; r < d; r++) {
        if (r === c) continue;
        const f = A[r]![c]! / A[c]![c]!;
        for (let k = c; k <= d; k++) A[r]![k]! -= f * A[c]![k]!;
      }
    }
    w = w.map((v, j) => v - A[j]![d]! / A[j]![j]!);
  }
  // back to the raw features: z_j = (x_j - mu_j) / sd_j
  const raw = w.map((v, j) => (j === 0 ? v : v / sd[j]!));
  raw[0] = w[0]! - w.slice(1).reduce((a, v, j) => a + (v * mu[j + 1]!) / sd[j + 1]!, 0);
  const r4 = (x: number) => Math.round(x * 10000) / 10000;
  return raw.map(r4);
}

/** Words a class's score weights are fitted on: correct transcripts' words, hit or miss. */
function weightRows(cases: CaseRecord[], cls: CalibrationClass | null): { x: number[]; y: number }[] {
  return cases
    .filter((c) => c.kind === 'correct')
    .flatMap((c) => c.words)
    .filter(
      (w) =>
        (cls === null || classOf(w) === cls) &&
        w.evidence &&
        w.hit !== null &&
        w.evidence.gop !== undefined &&
        w.evidence.gop !== null,
    )
    .map((w) => ({ x: scoreFeatures(w.evidence!, classOf(w)!), y: w.hit ? 1 : 0 }));
}

/**
 * A class with too few words borrows its neighbour's fit: words spelled by eSpeak are scored as the
 * dictionary's, Arabic without vowels as vowelled Arabic.
 */
const BORROW: Partial<Record<CalibrationClass, CalibrationClass>> = {
  g2p: 'dictionary',
  arabic_plain: 'arabic',
};

export function fitWeights(cases: CaseRecord[]): ScoreWeights {
  const out = {} as ScoreWeights;
  for (const cls of CLASSES) {
    let rows = weightRows(cases, cls);
    if (rows.length < 4 * MIN_BIN && BORROW[cls]) rows = weightRows(cases, BORROW[cls]!);
    out[cls] = logisticFit(
      rows.map((r) => r.x),
      rows.map((r) => r.y),
    );
  }
  return out;
}

/**
 * Share of the transcripts users send that are of other speech, as presence() is fitted: the swapped
 * words are weighed down to it, so that the words of a correct transcript keep a presence near 1.
 */
const WRONG_PRIOR = 0.05;

/**
 * presence(): placed words of correct transcripts (1) against those of other recordings' (0), per class;
 * within each side every set weighs the same, and the absent side weighs WRONG_PRIOR of the present one.
 */
export function fitPresence(cases: CaseRecord[]): PresenceWeights {
  const rows = (cls: CalibrationClass | null) =>
    cases
      .filter((c) => c.kind === 'correct' || c.kind === 'swapped')
      .flatMap((c) => c.words.map((w) => ({ w, y: c.kind === 'correct' ? 1 : 0, set: c.set })))
      .filter(
        ({ w }) => (cls === null || classOf(w) === cls) && w.status === 'aligned' && w.evidence?.gop != null,
      )
      .map(({ w, y, set }) => ({ x: presenceFeatures(w.evidence!), y, set }));
  const out = {} as PresenceWeights;
  for (const cls of CLASSES) {
    const own = rows(cls);
    const wrong = own.filter((r) => r.y === 0).length;
    const borrowed = wrong >= MIN_BIN && own.length >= 4 * MIN_BIN ? own : rows(BORROW[cls] ?? null);
    const use = borrowed.length ? borrowed : rows(null);
    // each side's weight shared equally by its sets, then by the words of each set: the many words of
    // a synthetic set do not decide alone what a real voice's correct word looks like
    const nRight = use.filter((r) => r.y === 1).length;
    const count = new Map<string, number>();
    for (const r of use) count.set(`${r.y}/${r.set}`, (count.get(`${r.y}/${r.set}`) ?? 0) + 1);
    const setsOf = (y: number) => [...count.keys()].filter((k) => k.startsWith(`${y}/`)).length;
    const side = (y: number) => (y === 1 ? nRight : WRONG_PRIOR * nRight);
    const w = logisticFit(
      use.map((r) => r.x),
      use.map((r) => r.y),
      1e-2,
      use.map((r) => side(r.y) / setsOf(r.y) / count.get(`${r.y}/${r.set}`)!),
    );
    out[cls] = w;
  }
  return out;
}

/** The 95th percentile of the goodness of pronunciation of correct transcripts' placed words, per class. */
export function fitGopMax(cases: CaseRecord[]): Record<CalibrationClass, number> {
  const gops = (cls: CalibrationClass | null) =>
    cases
      .filter((c) => c.kind === 'correct')
      .flatMap((c) => c.words)
      .filter(
        (w) => (cls === null || classOf(w) === cls) && w.status === 'aligned' && w.evidence?.gop != null,
      )
      .map((w) => w.evidence!.gop!)
      .sort((a, b) => a - b);
  const p95 = (xs: number[]) => Math.round(xs[Math.floor(0.95 * (xs.length - 1))]! * 100) / 100;
  const all = gops(null);
  const out = {} as Record<CalibrationClass, number>;
  for (const cls of CLASSES) {
    const xs = gops(cls);
    out[cls] = p95(xs.length >= MIN_BIN ? xs : all);
  }
  return out;
}

export const CLASSES: CalibrationClass[] = ['dictionary', 'g2p', 'arabic', 'arabic_plain', 'ipa'];

export interface Fit {
  weights: ScoreWeights;
  presence: PresenceWeights;
  tables: Record<CalibrationClass, CalibrationTable>;
  gopMax: Record<CalibrationClass, number>;
}

/**
 * Score weights, then the tables over the weighted score on the words of correct transcripts, then the
 * presence weights and GOP_MAX. A word's confidence is its table's probability times its presence.
 */
export function fitAll(cases: CaseRecord[]): Fit {
  const weights = fitWeights(cases);
  const present = fitPresence(cases);
  const score = (cls: CalibrationClass) => (e: WordEvidence) => rawWordScore(e, cls, weights);
  const tables = {} as Record<CalibrationClass, CalibrationTable>;
  const pooled = CLASSES.flatMap((c) => samplesOf(cases, c, score(c)));
  for (const cls of CLASSES) {
    const s = samplesOf(cases, cls, score(cls));
    // a class with too few words for one bin borrows the pooled table; one bin is the class's hit rate
    tables[cls] = fitIsotonic(s.length >= MIN_BIN ? s : pooled);
  }
  return { weights, presence: present, tables, gopMax: fitGopMax(cases) };
}

/** The dump's cases with confidences, verdicts and WER/CER recomputed with `tables`. */
export function replay(cases: CaseRecord[], fit: Fit): CaseRecord[] {
  const { weights, tables, gopMax } = fit;
  const present = (e: WordEvidence, cls: CalibrationClass) => presence(e, cls, fit.presence);
  return cases.map((c) => {
    const words = c.words.map((w) => ({
      ...w,
      confidence:
        w.status === 'aligned' && w.evidence && w.cls
          ? calibrateWith(tables[classOf(w)!], rawWordScore(w.evidence, classOf(w)!, weights)) *
            present(w.evidence, classOf(w)!)
          : w.confidence,
    }));
    const timings: WordTiming[] = words.map((w, index) => ({
      index,
      word: w.word,
      normalized: w.word,
      start: w.start,
      end: w.end,
      duration: w.start !== null && w.end !== null ? w.end - w.start : null,
      confidence: w.status === 'aligned' ? w.confidence : 0,
      status: w.status,
      phones: [],
      char_start: 0,
      char_end: 0,
    }));
    const q = assessQuality({
      words: timings,
      fits: words.map((w) =>
        w.status === 'aligned' && w.evidence && w.cls ? wordFits(w.evidence, classOf(w)!, gopMax) : false,
      ),
      speech: {
        frames: new Uint8Array(0),
        regions: new Uint8Array(0),
        speechSeconds: c.speechSeconds,
        steady: c.steady,
      },
      untranscribedSeconds: c.untranscribed,
      // an older dump: all of it taken as between the words, as the verdict then did
      untranscribedInnerSeconds: c.untranscribedInner ?? c.untranscribed,
      untranscribedLongestSeconds: c.untranscribedLongest,
      duration: c.duration,
      clippingRatio: c.clippingRatio,
      language: c.language,
    });
    const placed = words.filter((w) => w.status === 'aligned');
    return {
      ...c,
      words,
      verdict: q.quality.verdict,
      reasons: q.quality.reasons.map((r) => r.code),
      wer: q.wer,
      cer: q.cer,
      meanConfidence: placed.length ? placed.reduce((a, w) => a + w.confidence, 0) / placed.length : 0,
    };
  });
}

/** TIMIT's SA sentences are read by every speaker: a "swapped" transcript may be the same text. */
export function withoutSameText(cases: CaseRecord[]): CaseRecord[] {
  const key = (c: CaseRecord) => c.words.map((w) => w.word.toLowerCase().replace(/[\p{P}]/gu, '')).join(' ');
  const own = new Map(cases.filter((c) => c.kind === 'correct').map((c) => [`${c.set}/${c.uid}`, key(c)]));
  return cases.filter((c) => c.kind !== 'swapped' || own.get(`${c.set}/${c.uid}`) !== key(c));
}

function main(): void {
  const files = process.argv.slice(2);
  if (!files.length) throw new Error('usage: calibrate.ts DUMP.json [DUMP.json ...]');
  const all = files.flatMap((file) => JSON.parse(readFileSync(file, 'utf8')) as CaseRecord[]);
  const cases = withoutSameText(all);
  console.log(`${all.length - cases.length} swapped cases dropped: the other utterance had the same text`);
  const candidates: [string, (e: WordEvidence) => number][] = [
    ['legacy score', (e) => e.legacy],
    ['p', (e) => e.p],
    ['p per phone (fitScore)', fitScore],
    ['loop hit share', (e) => (e.loopN ? (e.loopHit ?? 0) / e.loopN : 0)],
    ['-GOP', (e) => -(e.gop ?? 0)],
    ['-edge spread', (e) => -(e.spread ?? 0)],
  ];
  console.log('AUC of candidate scores (correct transcripts, hit = both edges within 50 ms):');
  for (const cls of CLASSES) {
    const row = candidates.map(([name, f]) => `${name} ${auc(samplesOf(cases, cls, f)).toFixed(3)}`);
    console.log(`  ${cls} (n=${samplesOf(cases, cls, fitScore).length}): ${row.join(', ')}`);
  }
  const fit = fitAll(cases);
  const weighted = (cls: CalibrationClass) => (e: WordEvidence) => rawWordScore(e, cls, fit.weights);
  console.log('AUC of the weighted score (in sample):');
  for (const cls of CLASSES) console.log(`  ${cls}: ${auc(samplesOf(cases, cls, weighted(cls))).toFixed(3)}`);
  console.log('\nexport const SCORE_WEIGHTS: ScoreWeights = {');
  for (const cls of CLASSES) console.log(`  ${cls}: [${fit.weights[cls].join(', ')}],`);
  console.log('};\n');
  console.log('export const PRESENCE_WEIGHTS: PresenceWeights = {');
  for (const cls of CLASSES) console.log(`  ${cls}: [${fit.presence[cls].join(', ')}],`);
  console.log('};\n');
  console.log('export const CALIBRATION: Record<CalibrationClass, CalibrationTable> = {');
  for (const cls of CLASSES)
    console.log(`  ${cls}: [${fit.tables[cls].map(([u, p]) => `[${u}, ${p}]`).join(', ')}],`);
  console.log('};\n');
  console.log(`GOP_MAX: ${JSON.stringify(fit.gopMax)}\n`);
  // FIT_MIN: the 5th percentile of the fit scores of the words of correct transcripts, per class
  const p5 = CLASSES.map((cls) => {
    const xs = samplesOf(cases, cls, fitScore)
      .map((x) => x.s)
      .sort((a, b) => a - b);
    return `${cls}: ${xs.length >= MIN_BIN ? xs[Math.floor(0.05 * xs.length)]!.toFixed(4) : '-'}`;
  });
  console.log(`5th percentile of the fit score (FIT_MIN): ${p5.join(', ')}\n`);
  console.log(qualityReport(replay(cases, fit)).join('\n'));
  // Held out: each utterance's words are scored with a table fitted without that utterance's fold.
  const uids = [...new Set(cases.map((c) => `${c.set}/${c.uid}`))];
  for (const k of [2, 5]) {
    console.log(`\n## Held out (${k}-fold by utterance)\n`);
    for (const line of heldOutReport(crossFit(cases, uids, k))) console.log(line);
  }
}

/** Every case replayed with the tables fitted on the other folds (utterance i is in fold i mod k). */
export function crossFit(cases: CaseRecord[], uids: string[], k: number): CaseRecord[] {
  const foldOf = (c: CaseRecord) => uids.indexOf(`${c.set}/${c.uid}`) % k;
  const out: CaseRecord[] = [];
  for (let f = 0; f < k; f++)
    out.push(
      ...replay(
        cases.filter((c) => foldOf(c) === f),
        fitAll(cases.filter((c) => foldOf(c) !== f)),
      ),
    );
  return out;
}

/**
 * What ECE a perfectly calibrated confidence would show on these same words: each word's outcome drawn
 * with its own confidence as the probability of a hit, ECE measured with the same bins, many times.
 * A measured ECE inside this range is what sampling alone produces on so few words; the target 0.05
 * is below what a perfect table can show when the range's middle is near or above it.
 */
export function eceUnderCalibration(
  pairs: { p: number; y: number }[],
  draws = 2000,
): { mean: number; p95: number } {
  const rnd = seeded(17);
  const eces: number[] = [];
  for (let d = 0; d < draws; d++)
    eces.push(reliability(pairs.map((x) => ({ p: x.p, y: rnd() < x.p ? 1 : 0 }))).ece);
  eces.sort((a, b) => a - b);
  return { mean: eces.reduce((a, e) => a + e, 0) / draws, p95: eces[Math.floor(0.95 * draws)]! };
}

function heldOutReport(cases: CaseRecord[]): string[] {
  return CALIBRATION_GROUPS.map(([name, sets]) => {
    const pairs = calibrationPairs(cases, sets);
    const e = reliability(pairs).ece;
    const n = eceUnderCalibration(pairs);
    const verdict = e <= n.p95 ? 'within' : 'outside';
    const a = auc(pairs.map((x) => ({ s: x.p, y: x.y })));
    const wrong = cases
      .filter((c) => c.kind === 'swapped' && sets.includes(c.set))
      .flatMap((c) => c.words)
      .filter((w) => w.status === 'aligned');
    const wrongMean = wrong.length
      ? `, another recording's transcript ${(wrong.reduce((x, w) => x + w.confidence, 0) / wrong.length).toFixed(3)}`
      : '';
    return `- ${name}, ${pairs.length} words: AUC ${a.toFixed(3)}${wrongMean}; ECE ${e.toFixed(3)}; a perfectly calibrated confidence on the same words: mean ${n.mean.toFixed(3)}, 95th percentile ${n.p95.toFixed(3)} (${verdict})`;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
