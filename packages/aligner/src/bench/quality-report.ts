// Tables for bench --mode quality (docs/benchmarks.md): verdict confusion matrix, WER/CER by case kind,
// reliability of word confidence and its expected calibration error.
import type { Verdict } from '@tazamun/contracts/alignment-result';
import type { CaseRecord } from './quality.ts';

const VERDICTS: Verdict[] = ['good', 'partial', 'mismatch', 'no_speech'];
const f = (x: number | null | undefined, d = 3): string =>
  x === null || x === undefined || Number.isNaN(x) ? '-' : x.toFixed(d);
const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};

export function confusion(cases: CaseRecord[]): string[] {
  const lines = [
    '| set | case | n | good | partial | mismatch | no_speech |',
    '|---|---|---|---|---|---|---|',
  ];
  const sets = [...new Set(cases.map((c) => c.set))];
  for (const set of [...sets, 'all']) {
    for (const kind of ['correct', 'swapped', 'extra', 'extra-before', 'tone', 'silence'] as const) {
      const cs = cases.filter((c) => (set === 'all' || c.set === set) && c.kind === kind);
      if (!cs.length) continue;
      const cnt = VERDICTS.map((v) => cs.filter((c) => c.verdict === v).length);
      lines.push(`| ${set} | ${kind} | ${cs.length} | ${cnt.join(' | ')} |`);
    }
  }
  return lines;
}

export function werTable(cases: CaseRecord[]): string[] {
  const lines = [
    '| set | case | n | WER mean | WER median | CER mean | phone error rate (diagnostic) mean |',
    '|---|---|---|---|---|---|---|',
  ];
  const sets = [...new Set(cases.map((c) => c.set))];
  for (const set of sets) {
    for (const kind of ['correct', 'swapped', 'extra', 'extra-before', 'tone', 'silence'] as const) {
      const cs = cases.filter((c) => c.set === set && c.kind === kind);
      if (!cs.length) continue;
      const w = cs.map((c) => c.wer ?? NaN);
      lines.push(
        `| ${set} | ${kind} | ${cs.length} | ${f(mean(w))} | ${f(median(w))} | ${f(mean(cs.map((c) => c.cer ?? NaN)))} | ${f(mean(cs.filter((c) => c.phoneErrorRate !== null).map((c) => c.phoneErrorRate!)))} |`,
      );
    }
  }
  return lines;
}

/** Placed words of correct transcripts with a matched reference word: (confidence, hit). */
export function calibrationPairs(cases: CaseRecord[], sets: string[]): { p: number; y: number }[] {
  return cases
    .filter((c) => c.kind === 'correct' && sets.includes(c.set))
    .flatMap((c) => c.words)
    .filter((w) => w.status === 'aligned' && w.hit !== null)
    .map((w) => ({ p: w.confidence, y: w.hit ? 1 : 0 }));
}

export function reliability(pairs: { p: number; y: number }[], bins = 10): { lines: string[]; ece: number } {
  const lines = ['| confidence | words | mean confidence | share hit |', '|---|---|---|---|'];
  let ece = 0;
  for (let b = 0; b < bins; b++) {
    const lo = b / bins;
    const hi = (b + 1) / bins;
    const inBin = pairs.filter((x) => x.p >= lo && (b === bins - 1 ? x.p <= hi : x.p < hi));
    if (!inBin.length) continue;
    const mp = mean(inBin.map((x) => x.p));
    const my = mean(inBin.map((x) => x.y));
    ece += (inBin.length / pairs.length) * Math.abs(mp - my);
    lines.push(`| ${lo.toFixed(1)}-${hi.toFixed(1)} | ${inBin.length} | ${f(mp)} | ${f(my)} |`);
  }
  return { lines, ece };
}

/** The sets each calibration figure is reported on. */
export const CALIBRATION_GROUPS: [string, string[]][] = [
  ['English (timit-dev)', ['timit-dev']],
  ['French (fr-librivox-mfa, machine reference)', ['fr-librivox-mfa']],
  ['Arabic (ar-synthetic)', ['ar-synthetic']],
  ['IPA (ar-voxangeles-aeb)', ['ar-voxangeles-aeb']],
  ['Arabic, synthetic, vowelled (synth-ar)', ['synth-ar']],
  ['Arabic, synthetic, without diacritics (synth-ar-plain)', ['synth-ar-plain']],
  ['Arabic, all (ar-synthetic + synth-ar + synth-ar-plain)', ['ar-synthetic', 'synth-ar', 'synth-ar-plain']],
  ['IPA, synthetic isolated words (synth-ipa)', ['synth-ipa']],
  ['IPA, all (ar-voxangeles-aeb + synth-ipa)', ['ar-voxangeles-aeb', 'synth-ipa']],
];

export function qualityReport(cases: CaseRecord[]): string[] {
  const out = [
    '### Verdicts',
    '',
    ...confusion(cases),
    '',
    '### WER / CER',
    '',
    ...werTable(cases),
    '',
    '### Where the words go when speech the transcript leaves out comes after or before it',
    '',
    ...placementTable(cases),
    '',
  ];
  for (const [name, sets] of CALIBRATION_GROUPS) {
    const pairs = calibrationPairs(cases, sets);
    if (!pairs.length) continue;
    const r = reliability(pairs);
    out.push(`### Calibration: ${name}, ${pairs.length} words, ECE ${f(r.ece)}`, '', ...r.lines, '');
  }
  out.push(
    "### Confidence: hits against misses, and another recording's transcript",
    '',
    ...confidenceTable(cases),
    '',
  );
  const zero = cases
    .filter((c) => c.kind === 'correct')
    .flatMap((c) => c.words)
    .filter((w) => w.status === 'aligned' && w.confidence === 0).length;
  out.push(`placed words of correct transcripts with confidence 0: ${zero}`);
  return out;
}

/**
 * The transcript's own words against their reference, alone and with another utterance after or before
 * them: mean edge error (each capped at 1 s), the share within 50 ms, edges off by more than 0.5 s, and
 * the words not found.
 */
export function placementTable(cases: CaseRecord[]): string[] {
  const lines = [
    '| set | case | edges | mean ms (capped at 1 s) | <=50 % | > 0.5 s | not found |',
    '|---|---|---|---|---|---|---|',
  ];
  const sets = [...new Set(cases.map((c) => c.set))];
  for (const set of sets) {
    for (const kind of ['correct', 'extra', 'extra-before'] as const) {
      const cs = cases.filter((c) => c.set === set && c.kind === kind);
      if (!cs.length) continue;
      const edges = cs.flatMap((c) => c.words.flatMap((w) => (w.err ? w.err.map(Math.abs) : [])));
      const notFound = cs.reduce((a, c) => a + c.words.filter((w) => w.status === 'not_found').length, 0);
      const capped = edges.map((e) => Math.min(e, 1));
      lines.push(
        `| ${set} | ${kind} | ${edges.length} | ${f(1000 * mean(capped), 1)} | ${f((100 * edges.filter((e) => e <= 0.05).length) / edges.length, 1)} | ${edges.filter((e) => e > 0.5).length} | ${notFound} |`,
      );
    }
  }
  return lines;
}

/**
 * Per set: how well the confidence ranks hits above misses on correct transcripts (AUC), and the mean
 * confidence of the words placed on correct transcripts and on swapped ones (another recording's text).
 */
function confidenceTable(cases: CaseRecord[]): string[] {
  const lines = [
    "| set | words (hit / miss) | AUC hit/miss | mean, correct transcript | mean, another recording's transcript |",
    '|---|---|---|---|---|',
  ];
  const sets = [...new Set(cases.map((c) => c.set)), 'all'];
  for (const set of sets) {
    const of = (kind: CaseRecord['kind']) =>
      cases
        .filter((c) => c.kind === kind && (set === 'all' || c.set === set))
        .flatMap((c) => c.words)
        .filter((w) => w.status === 'aligned');
    const right = of('correct');
    const pairs = right.filter((w) => w.hit !== null).map((w) => ({ s: w.confidence, y: w.hit ? 1 : 0 }));
    const hits = pairs.filter((x) => x.y === 1).length;
    const wrong = of('swapped');
    const a = auc(pairs);
    lines.push(
      `| ${set} | ${hits} / ${pairs.length - hits} | ${Number.isNaN(a) ? '-' : f(a)} | ${right.length ? f(mean(right.map((w) => w.confidence))) : '-'} | ${wrong.length ? `${f(mean(wrong.map((w) => w.confidence)))} (${wrong.length} words)` : '-'} |`,
    );
  }
  return lines;
}

/** Area under the ROC curve: how well a score ranks hits above misses (0.5 = chance). */
export function auc(samples: { s: number; y: number }[]): number {
  const pos = samples.filter((x) => x.y === 1).map((x) => x.s);
  const neg = samples.filter((x) => x.y === 0).map((x) => x.s);
  if (!pos.length || !neg.length) return NaN;
  let win = 0;
  for (const p of pos) for (const n of neg) win += p > n ? 1 : p === n ? 0.5 : 0;
  return win / (pos.length * neg.length);
}
