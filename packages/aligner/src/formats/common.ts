// Helpers shared by the export formats.
import type { AlignmentResult, PhoneTiming, WordTiming } from '@tazamun/contracts/alignment-result';

export interface TimedWord {
  word: WordTiming;
  start: number;
  end: number;
}

/**
 * The aligned words in time order, made non-overlapping (a word that starts before the previous one
 * ends is started at that end) and with positive duration; words that end up empty are dropped.
 * Times are clamped to [0, duration].
 */
export function timedWords(result: AlignmentResult): TimedWord[] {
  const limit = totalDuration(result);
  const aligned = result.words
    .filter((w) => w.status === 'aligned' && w.start !== null && w.end !== null)
    .map((w) => ({ word: w, start: clamp(w.start ?? 0, 0, limit), end: clamp(w.end ?? 0, 0, limit) }))
    .sort((a, b) => a.start - b.start || a.word.index - b.word.index);
  const out: TimedWord[] = [];
  let cursor = 0;
  for (const t of aligned) {
    const start = Math.max(t.start, cursor);
    if (t.end <= start) continue;
    out.push({ word: t.word, start, end: t.end });
    cursor = t.end;
  }
  return out;
}

export interface TimedPhone {
  phone: PhoneTiming;
  word: WordTiming;
  start: number;
  end: number;
}

/** All phones of aligned words, in time order, non-overlapping, clamped like the words. */
export function timedPhones(result: AlignmentResult): TimedPhone[] {
  const limit = totalDuration(result);
  const all: TimedPhone[] = [];
  for (const w of result.words) {
    if (w.status !== 'aligned') continue;
    for (const p of w.phones) {
      all.push({ phone: p, word: w, start: clamp(p.start, 0, limit), end: clamp(p.end, 0, limit) });
    }
  }
  all.sort((a, b) => a.start - b.start);
  const out: TimedPhone[] = [];
  let cursor = 0;
  for (const t of all) {
    const start = Math.max(t.start, cursor);
    if (t.end <= start) continue;
    out.push({ ...t, start });
    cursor = t.end;
  }
  return out;
}

/** The span a file must cover: the audio duration, or the last time used if that is later. */
export function totalDuration(result: AlignmentResult): number {
  let max = Number.isFinite(result.audio.duration) ? Math.max(0, result.audio.duration) : 0;
  for (const w of result.words) {
    if (w.end !== null && Number.isFinite(w.end)) max = Math.max(max, w.end);
    for (const p of w.phones) if (Number.isFinite(p.end)) max = Math.max(max, p.end);
  }
  return max;
}

function clamp(x: number, lo: number, hi: number): number {
  if (!Number.isFinite(x)) return lo;
  return Math.min(hi, Math.max(lo, x));
}

// C0/C1 controls and DEL, bidi embeddings/overrides/isolates (U+202A-202E, U+2066-2069), the
// directional marks LRM/RLM/ALM, line/paragraph separators and BOM. ZWJ/ZWNJ are kept: Persian and
// Indic spelling needs them, and they cannot reorder text.
const UNSAFE_RE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069\uFEFF]/g;

/**
 * Text safe to put in a subtitle or table: no control characters, no bidi overrides (U+202E could
 * display a cue in a misleading order), whitespace runs collapsed. Logical order is unchanged, so
 * right-to-left text is rendered by the player's bidi algorithm as written.
 */
export function safeText(s: string): string {
  return s
    .replace(/[\r\n\t]+/g, ' ')
    .replace(UNSAFE_RE, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Labels for TextGrid, CSV and EAF: only the bidi overrides/isolates/marks are removed (they could
 * make a label display in another order than it is stored); other characters are each format's job.
 */
export function stripBidiControls(s: string): string {
  return s.replace(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g, '');
}

/** Seconds rounded to milliseconds, never negative. */
export function toMs(seconds: number): number {
  return Math.max(0, Math.round(seconds * 1000));
}

/** hh:mm:ss.mmm (WebVTT) or hh:mm:ss,mmm (SRT) from integer milliseconds. */
export function clock(ms: number, sep: '.' | ','): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const f = ms % 1000;
  return `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}${sep}${pad(f, 3)}`;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** A time as a plain decimal (at most 6 decimals, no exponent), for TextGrid and CSV. */
export function decimal(seconds: number): string {
  const r = Math.round(seconds * 1e6) / 1e6;
  if (Object.is(r, -0) || r === 0) return '0';
  return r.toFixed(6).replace(/0+$/, '').replace(/\.$/, '');
}

/** One line saying which revision a result is, for the formats that can carry a comment. */
export function revisionNote(result: AlignmentResult): string | null {
  const r = result.revision;
  if (!r) return null;
  const kind = r.hand_corrected ? `corrected (${r.author})` : 'engine result, not corrected';
  return `Tazamun revision ${r.number}, ${kind}, ${r.created_at}`;
}
