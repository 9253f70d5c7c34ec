// Applies a save's edits to a result and checks them. Only what the save touched is checked: an
// engine result may hold overlaps the user never asked to fix, and a label fix must not fail on them.
import type { AlignmentResult, WordTiming } from '@tazamun/contracts/alignment-result';
import type { RevisionCreate } from '@tazamun/contracts/revisions';
import { createError, fieldError } from '../errors.ts';

// Rounding in the client (milliseconds) and in the engine (1e-4 s) must not read as an overlap.
const EPS = 1e-6;
const round4 = (x: number): number => Math.round(x * 10000) / 10000;

export interface Edited {
  result: AlignmentResult;
  changed: number[];
}

// Messages name a word by its `index`, the number the request and the answer's `word_index` use.
function wordParams(w: WordTiming) {
  return { index: w.index, word: w.word };
}

/**
 * A word moved to [start, end] (phones given in the same save are applied after this): its
 * edge phones follow its edges, as a drag in the workspace carries them. When an edge passes one of the
 * inner phone boundaries, the phones are spread over the new span in proportion to their durations
 * (nothing else could keep them in order, inside the word and at least one tenth of a millisecond long).
 */
function carryPhones(w: WordTiming, start: number, end: number): void {
  const phones = w.phones;
  if (phones.length === 0) return;
  const first = phones[0]!;
  const last = phones[phones.length - 1]!;
  if (phones.length === 1 || (start < first.end - EPS && end > last.start + EPS)) {
    // inner boundaries stay where they were
    first.start = start;
    last.end = end;
    return;
  }
  const total = phones.reduce((a, p) => a + Math.max(0, p.end - p.start), 0);
  let t = start;
  phones.forEach((p, k) => {
    const share = total > 0 ? Math.max(0, p.end - p.start) / total : 1 / phones.length;
    p.start = round4(t);
    t = k === phones.length - 1 ? end : t + share * (end - start);
    p.end = round4(t);
  });
}

export function applyEdits(base: AlignmentResult, body: RevisionCreate): Edited {
  const result = structuredClone(base);
  const byIndex = new Map(result.words.map((w) => [w.index, w]));
  const find = (index: number, field: string): WordTiming => {
    const w = byIndex.get(index);
    if (!w) throw fieldError({ [field]: [`This value is invalid: no word has index ${index}.`] });
    return w;
  };
  const changed = new Set<number>();
  const retimed = new Set<number>();
  const rephoned = new Set<number>();

  for (const e of body.words ?? []) {
    const w = find(e.index, 'words');
    if (e.word !== undefined && e.word !== w.word) {
      w.word = e.word;
      changed.add(w.index);
    }
    if (e.start === undefined && e.end === undefined) continue;
    if (w.start === null && (e.start === undefined || e.end === undefined))
      throw createError('word_end_before_start', wordParams(w), { word_index: w.index });
    const start = e.start ?? w.start!;
    const end = e.end ?? w.end!;
    if (start === w.start && end === w.end) continue;
    if (w.start !== null && w.end !== null) carryPhones(w, start, end);
    w.start = start;
    w.end = end;
    if (w.status === 'not_found') {
      // placed by hand: a word the engine missed now has a time
      w.status = 'aligned';
    }
    changed.add(w.index);
    retimed.add(w.index);
  }

  for (const e of body.word_phones ?? []) {
    const w = find(e.word_index, 'word_phones');
    w.phones = e.phones.map((p) => ({
      phone: p.phone,
      model_phone: p.model_phone ?? p.phone,
      start: p.start,
      end: p.end,
      ...(p.approximated ? { approximated: true } : {}),
    }));
    changed.add(w.index);
    rephoned.add(w.index);
  }

  for (const e of body.phones ?? []) {
    const w = find(e.word_index, 'phones');
    const p = w.phones[e.index];
    if (!p)
      throw fieldError({ phones: [`This value is invalid: word ${e.word_index} has no phone ${e.index}.`] });
    if (e.start !== undefined) p.start = e.start;
    if (e.end !== undefined) p.end = e.end;
    if (e.phone !== undefined && e.phone !== p.phone) {
      // the label the user wrote (IPA) is the one every export shows; model_phone keeps the model's
      // (whether the model had a phone of its own for the new label is not known: no mark)
      p.phone = e.phone;
      delete p.approximated;
    }
    changed.add(w.index);
    rephoned.add(w.index);
  }

  const duration = result.audio.duration;
  const words = result.words;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!retimed.has(w.index) && !rephoned.has(w.index)) continue;
    const params = wordParams(w);
    const extra = { word_index: w.index };
    if (retimed.has(w.index)) {
      const start = w.start!;
      const end = w.end!;
      if (start < -EPS || end > duration + EPS)
        throw createError('word_outside_audio', { ...params, duration: round4(duration) }, extra);
      if (end <= start + EPS) throw createError('word_end_before_start', params, extra);
      const prev = words.slice(0, i).findLast((x) => x.start !== null && x.end !== null);
      const next = words.slice(i + 1).find((x) => x.start !== null && x.end !== null);
      if (prev && prev.end! > start + EPS)
        throw createError('word_overlap', { ...params, other: prev.word }, extra);
      if (next && next.start! < end - EPS)
        throw createError('word_overlap', { ...params, other: next.word }, extra);
      w.duration = round4(end - start);
    }
    let cursor = w.start ?? 0;
    w.phones.forEach((p, k) => {
      const bad =
        p.end <= p.start + EPS ||
        p.start < cursor - EPS ||
        (w.start !== null && p.start < w.start - EPS) ||
        (w.end !== null && p.end > w.end + EPS);
      if (bad) throw createError('phone_invalid', { ...params, phone: k, label: p.phone }, extra);
      cursor = p.end;
    });
  }

  // the mark a re-aligned stretch respects (splice-stretch.ts) and the workspace shows
  for (const w of words) if (changed.has(w.index)) w.hand_corrected = true;
  const touched = new Set(changed);
  for (const s of result.segments) {
    const inSeg = words.filter((w) => w.index >= s.word_start && w.index < s.word_end);
    if (!inSeg.some((w) => touched.has(w.index))) continue;
    const timed = inSeg.filter((w) => w.start !== null && w.end !== null);
    s.start = timed.length ? Math.min(...timed.map((w) => w.start!)) : null;
    s.end = timed.length ? Math.max(...timed.map((w) => w.end!)) : null;
  }
  recountMetrics(result);
  return { result, changed: [...changed].sort((a, b) => a - b) };
}

/** Word counts and coverage follow the words; the engine's scores (confidence, WER) stay its own. */
export function recountMetrics(result: AlignmentResult): void {
  const aligned = result.words.filter((w) => w.status === 'aligned').length;
  result.metrics.words_total = result.words.length;
  result.metrics.words_aligned = aligned;
  result.metrics.coverage = result.words.length ? aligned / result.words.length : 0;
}
