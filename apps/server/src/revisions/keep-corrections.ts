// A whole recording aligned again (a project re-run with its adapted model, ADR 0070) becomes a new
// revision on top of the latest one without undoing what a person corrected: every word of the latest
// revision marked hand_corrected keeps its times, label and phones, and the engine's neighbours give way
// (a word is trimmed to end where a corrected one starts, or to start where it ends; a neighbour left with
// no time of its own is not found). The engine's words map one to one onto the latest revision's, as
// the same transcript was aligned; when they do not, nothing is kept and the caller says so.
import type { AlignmentResult, WordTiming } from '@tazamun/contracts/alignment-result';
import { recountMetrics } from './apply-edits.ts';

const r4 = (x: number): number => Math.round(x * 10000) / 10000;

/** A word cut to [start, end]: its phones clipped to it; unplaced when nothing of it is left. */
function clip(w: WordTiming, start: number, end: number): WordTiming {
  if (w.start === null || w.end === null) return w;
  const s = Math.max(w.start, start);
  const e = Math.min(w.end, end);
  if (e - s < 0.01)
    return { ...w, start: null, end: null, duration: null, status: 'not_found', confidence: 0, phones: [] };
  const phones = w.phones
    .filter((p) => p.end > s && p.start < e)
    .map((p) => ({ ...p, start: Math.max(p.start, s), end: Math.min(p.end, e) }));
  return { ...w, start: s, end: e, duration: r4(e - s), phones };
}

/**
 * `fresh` (the engine's result for the whole recording) with the corrections of `latest` put back.
 * Returns null when the two do not hold the same words (the transcripts differ).
 */
export function keepCorrections(
  latest: AlignmentResult,
  fresh: AlignmentResult,
): { result: AlignmentResult; changed: number[]; kept: number } | null {
  if (
    fresh.words.length !== latest.words.length ||
    fresh.words.some((w, i) => w.word !== latest.words[i]!.word)
  )
    return null;
  const result = structuredClone(fresh);
  const corrected = latest.words
    .map((w, i) => ({ w, i }))
    .filter(({ w }) => w.hand_corrected && w.start !== null && w.end !== null);
  for (const { w, i } of corrected) result.words[i] = structuredClone(w);
  // the engine's words give way to the corrected ones around them
  for (const { w } of corrected) {
    result.words = result.words.map((x) => {
      if (x.hand_corrected || x.start === null || x.end === null) return x;
      if (x.end <= w.start! || x.start >= w.end!) return x;
      // before the corrected word (it starts first): it ends where that one starts; after it: the reverse
      return x.start < w.start! ? clip(x, x.start, w.start!) : clip(x, w.end!, x.end);
    });
  }
  // segments keep the fresh bounds of their words
  for (const s of result.segments) {
    const ws = result.words.slice(s.word_start, s.word_end).filter((x) => x.start !== null);
    s.start = ws.length ? Math.min(...ws.map((x) => x.start!)) : null;
    s.end = ws.length ? Math.max(...ws.map((x) => x.end!)) : null;
  }
  recountMetrics(result);
  const changed = result.words
    .map((x, i) => ({ x, i }))
    .filter(({ x, i }) => x.start !== latest.words[i]!.start || x.end !== latest.words[i]!.end)
    .map(({ i }) => i);
  return { result, changed, kept: corrected.length };
}
