// Re-aligning a stretch: which words it covers, and how the engine's result for that stretch of audio
// replaces them while every word outside keeps its times, labels and phones.
import type { AlignmentResult, WordTiming } from '@tazamun/contracts/alignment-result';
import { recountMetrics } from './apply-edits.ts';

export interface Stretch {
  /** positions in result.words: [from, to) are replaced */
  from: number;
  to: number;
  /** the audio window, widened to the words it cuts */
  start: number;
  end: number;
}

const timed = (w: WordTiming): boolean => w.start !== null && w.end !== null;

/**
 * The words a stretch covers: every word whose time it touches (the window widens to include a word
 * it cuts, so no word is split), and the words not found between them and their timed neighbours. A
 * word corrected by hand that the stretch only cuts is not taken in: the window stops at its edge, so a
 * re-alignment never undoes a correction the user did not select whole.
 */
export function findStretch(result: AlignmentResult, start: number, end: number): Stretch {
  let s = start;
  let e = end;
  for (const w of result.words) {
    if (!timed(w) || !(w.start! < e && w.end! > s)) continue;
    const cut = w.start! < start - 1e-6 || w.end! > end + 1e-6;
    if (w.hand_corrected && cut) {
      if (w.start! < start) s = Math.max(s, w.end!);
      else e = Math.min(e, w.start!);
      continue;
    }
    s = Math.min(s, w.start!);
    e = Math.max(e, w.end!);
  }
  const words = result.words;
  let prev = -1;
  let next = words.length;
  words.forEach((w, i) => {
    if (!timed(w)) return;
    if (w.end! <= s) prev = i;
    else if (w.start! >= e && next === words.length) next = i;
  });
  return { from: prev + 1, to: next, start: Math.max(0, s), end: Math.min(result.audio.duration, e) };
}

/** The text the engine aligns when the user gave none: the stretch's own words. */
export function stretchText(result: AlignmentResult, st: Stretch): string {
  return result.words
    .slice(st.from, st.to)
    .map((w) => w.word)
    .join(' ');
}

/**
 * `part` is the engine's result for the window's audio alone (times from the window's start) and
 * `text` the transcript it aligned. Returns the whole result with the stretch replaced, and the
 * indices of the words that changed (in the new numbering).
 */
export function spliceStretch(
  base: AlignmentResult,
  st: Stretch,
  part: AlignmentResult,
  text: string,
  textGiven: boolean,
): { result: AlignmentResult; changed: number[] } {
  const result = structuredClone(base);
  const old = result.words.slice(st.from, st.to);
  const original = result.text.original;
  // Where the stretch's text sits in the transcript: between its first and last old word, or at the
  // point it is inserted when the stretch held no word.
  const charStart = old[0]?.char_start ?? result.words[st.from]?.char_start ?? original.length;
  const charEnd = old.at(-1)?.char_end ?? charStart;
  // Without new text the transcript stays as written; the engine's words map one to one on the old.
  const keepText = !textGiven && part.words.length === old.length;
  const newOriginal = keepText ? original : original.slice(0, charStart) + text + original.slice(charEnd);
  const charShift = newOriginal.length - original.length;
  const wordShift = part.words.length - old.length;
  const shift = (t: number | null): number | null =>
    t === null ? null : Math.round((t + st.start) * 10000) / 10000;

  const fresh: WordTiming[] = part.words.map((w, k) => ({
    ...w,
    index: st.from + k,
    word: keepText ? old[k]!.word : w.word,
    char_start: keepText ? old[k]!.char_start : charStart + w.char_start,
    char_end: keepText ? old[k]!.char_end : charStart + w.char_end,
    start: shift(w.start),
    end: shift(w.end),
    phones: w.phones.map((p) => ({ ...p, start: shift(p.start)!, end: shift(p.end)! })),
  }));
  const after = result.words.slice(st.to).map((w) => ({
    ...w,
    index: w.index + wordShift,
    char_start: w.char_start + charShift,
    char_end: w.char_end + charShift,
  }));
  result.words = [...result.words.slice(0, st.from), ...fresh, ...after];
  result.text.original = newOriginal;

  // Segments keep their bounds outside the stretch; one that held the stretch grows or shrinks with it.
  const mapBound = (b: number): number =>
    b <= st.from ? b : b >= st.to ? b + wordShift : Math.min(b, st.from + part.words.length);
  const segments = result.segments
    .map((s) => ({ ...s, word_start: mapBound(s.word_start), word_end: mapBound(s.word_end) }))
    .filter((s) => s.word_end > s.word_start);
  segments.forEach((s, i) => {
    s.index = i;
    const ws = result.words.slice(s.word_start, s.word_end);
    const touched = s.word_start < st.from + fresh.length && s.word_end > st.from;
    if (!touched || ws.length === 0) return;
    const t = ws.filter(timed);
    s.start = t.length ? Math.min(...t.map((w) => w.start!)) : null;
    s.end = t.length ? Math.max(...t.map((w) => w.end!)) : null;
    s.text = newOriginal.slice(ws[0]!.char_start, ws.at(-1)!.char_end);
    s.confidence = ws.reduce((a, w) => a + w.confidence, 0) / ws.length;
  });
  result.segments = segments;
  recountMetrics(result);
  return { result, changed: fresh.map((w) => w.index) };
}
