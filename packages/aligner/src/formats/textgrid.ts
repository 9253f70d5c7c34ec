// Praat TextGrid, long text format ("ooTextFile"), as Praat itself writes it.
//
// - Interval tiers cover xmin..xmax with no gap: silences between words are empty intervals.
// - Words are not allowed to overlap in an interval tier: a word starting before the previous one ends
//   is started at that end (see timedWords); a word left without duration is not written.
// - Words not found in the audio have no time. They are written as points of a separate TextTier
//   (default name "not found"), each at the end of the aligned word before it (0 at the start), so a
//   Praat user sees what is missing and where; the tier is present only when some word was not found.
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import {
  decimal,
  revisionNote,
  stripBidiControls,
  timedPhones,
  timedWords,
  totalDuration,
} from './common.ts';

export interface TextGridOptions {
  wordTierName: string;
  phoneTierName: string;
  notFoundTierName: string;
  /** Write the phone tier (when the result has phones). */
  phones: boolean;
  /** Phone labels: the IPA when known ('ipa'), or the acoustic model's own label ('phone'). */
  phoneLabel: 'ipa' | 'phone';
  /** Write the not-found point tier when some word was not found. */
  notFoundTier: boolean;
}

export const DEFAULT_TEXTGRID_OPTIONS: TextGridOptions = {
  wordTierName: 'words',
  phoneTierName: 'phones',
  notFoundTierName: 'not found',
  phones: true,
  phoneLabel: 'ipa',
  notFoundTier: true,
};

interface Interval {
  xmin: number;
  xmax: number;
  text: string;
}

/** A Praat string literal: double quotes doubled; line breaks and controls become spaces. */
export function praatString(s: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = stripBidiControls(s).replace(/[\u0000-\u001F\u007F\u2028\u2029]/g, ' ');
  return `"${flat.replace(/"/g, '""')}"`;
}

function fillGaps(items: Interval[], xmax: number): Interval[] {
  const out: Interval[] = [];
  let cursor = 0;
  for (const it of items) {
    if (it.xmin > cursor) out.push({ xmin: cursor, xmax: it.xmin, text: '' });
    out.push(it);
    cursor = it.xmax;
  }
  if (cursor < xmax || out.length === 0) out.push({ xmin: cursor, xmax: Math.max(xmax, cursor), text: '' });
  return out;
}

function intervalTier(lines: string[], n: number, name: string, xmax: number, intervals: Interval[]): void {
  lines.push(`    item [${n}]:`);
  lines.push('        class = "IntervalTier" ');
  lines.push(`        name = ${praatString(name)} `);
  lines.push('        xmin = 0 ');
  lines.push(`        xmax = ${decimal(xmax)} `);
  lines.push(`        intervals: size = ${intervals.length} `);
  intervals.forEach((iv, i) => {
    lines.push(`        intervals [${i + 1}]:`);
    lines.push(`            xmin = ${decimal(iv.xmin)} `);
    lines.push(`            xmax = ${decimal(iv.xmax)} `);
    lines.push(`            text = ${praatString(iv.text)} `);
  });
}

/** The result as a TextGrid in Praat's long text format (UTF-8; Praat reads it without a BOM). */
export function toTextGrid(result: AlignmentResult, options: Partial<TextGridOptions> = {}): string {
  const o = { ...DEFAULT_TEXTGRID_OPTIONS, ...options };
  const words = timedWords(result);
  let xmax = totalDuration(result);
  if (xmax <= 0) xmax = 0.001; // Praat rejects an empty time domain
  // Rounding to 6 decimals must not create a zero-length interval.
  const wordIntervals = fillGaps(
    words.map((w) => ({ xmin: w.start, xmax: w.end, text: w.word.word })),
    xmax,
  ).filter((iv) => decimal(iv.xmax) !== decimal(iv.xmin));
  const tiers: ((lines: string[], n: number) => void)[] = [
    (lines, n) => intervalTier(lines, n, o.wordTierName, xmax, mergeRounded(wordIntervals, xmax)),
  ];
  const phones = timedPhones(result);
  if (o.phones && phones.length > 0) {
    const phoneIntervals = fillGaps(
      phones.map((p) => ({
        xmin: p.start,
        xmax: p.end,
        text: o.phoneLabel === 'ipa' ? (p.phone.ipa ?? p.phone.phone) : p.phone.phone,
      })),
      xmax,
    );
    tiers.push((lines, n) =>
      intervalTier(lines, n, o.phoneTierName, xmax, mergeRounded(phoneIntervals, xmax)),
    );
  }
  const missing = result.words.filter((w) => w.status === 'not_found');
  if (o.notFoundTier && missing.length > 0) {
    const points = missing.map((w) => {
      let at = 0;
      for (const t of words) if (t.word.index < w.index) at = Math.max(at, t.end);
      return { number: at, mark: w.word };
    });
    points.sort((a, b) => a.number - b.number);
    tiers.push((lines, n) => {
      lines.push(`    item [${n}]:`);
      lines.push('        class = "TextTier" ');
      lines.push(`        name = ${praatString(o.notFoundTierName)} `);
      lines.push('        xmin = 0 ');
      lines.push(`        xmax = ${decimal(xmax)} `);
      lines.push(`        points: size = ${points.length} `);
      points.forEach((p, i) => {
        lines.push(`        points [${i + 1}]:`);
        lines.push(`            number = ${decimal(p.number)} `);
        lines.push(`            mark = ${praatString(p.mark)} `);
      });
    });
  }
  const lines = [
    'File type = "ooTextFile"',
    'Object class = "TextGrid"',
    '',
    // Praat skips what follows "!" on a line: the revision travels with the file without a tier.
    ...(revisionNote(result) ? [`! ${revisionNote(result)}`] : []),
    'xmin = 0 ',
    `xmax = ${decimal(xmax)} `,
    'tiers? <exists> ',
    `size = ${tiers.length} `,
    'item []: ',
  ];
  tiers.forEach((write, i) => write(lines, i + 1));
  return `${lines.join('\n')}\n`;
}

// After rounding to microseconds, neighbouring intervals must share their boundary exactly and none may
// be empty: rebuild the chain from the rounded boundaries.
function mergeRounded(intervals: Interval[], xmax: number): Interval[] {
  const out: Interval[] = [];
  let cursor = 0;
  for (const iv of intervals) {
    const end = Number(decimal(iv.xmax));
    if (end <= cursor) {
      if (iv.text && out.length > 0 && !out[out.length - 1]?.text) {
        // a word swallowed by rounding replaces the empty interval before it
        const last = out[out.length - 1] as Interval;
        last.text = iv.text;
      }
      continue;
    }
    out.push({ xmin: cursor, xmax: end, text: iv.text });
    cursor = end;
  }
  const total = Number(decimal(xmax));
  if (out.length === 0) out.push({ xmin: 0, xmax: total, text: '' });
  const last = out[out.length - 1] as Interval;
  if (last.xmax < total) out.push({ xmin: last.xmax, xmax: total, text: '' });
  return out;
}
