// The editor's operations on a result, as pure functions: each returns a new result (the undo history
// keeps the old ones) and never leaves intervals out of order, overlapping or shorter than MIN.
import type { AlignmentResult, PhoneTiming, WordTiming } from '@tazamun/contracts/alignment-result';
import type { RevisionCreate } from '@tazamun/contracts/revisions';

/** One keyboard nudge, as in the issue: 5 ms. */
export const NUDGE = 0.005;
/** The shortest interval an edit may leave (one 5 ms step). */
export const MIN_INTERVAL = 0.005;
/** Below this confidence a word is marked for checking. */
export const LOW_CONFIDENCE = 0.5;
// Two edges closer than this are one shared boundary (the engine rounds to 1e-4 s).
const SAME = 1e-4;

const round = (t: number): number => Math.round(t * 10000) / 10000;

/** A boundary: the start or end edge of a word (phone null) or of one of its phones. */
export interface EdgeRef {
  word: number;
  phone: number | null;
  edge: 'start' | 'end';
}

const timed = (w: WordTiming | undefined): boolean => !!w && w.start !== null && w.end !== null;

function prevTimed(words: WordTiming[], pos: number): number {
  for (let i = pos - 1; i >= 0; i--) if (timed(words[i])) return i;
  return -1;
}

function nextTimed(words: WordTiming[], pos: number): number {
  for (let i = pos + 1; i < words.length; i++) if (timed(words[i])) return i;
  return -1;
}

export function edgeTime(result: AlignmentResult, ref: EdgeRef): number | null {
  const w = result.words[ref.word];
  if (!w) return null;
  if (ref.phone === null) return w[ref.edge];
  return w.phones[ref.phone]?.[ref.edge] ?? null;
}

interface Mover {
  word: number;
  phone: number | null;
  field: 'start' | 'end';
}

/** The edges that move together with `ref`, and the range the boundary may take. */
function linkedEdges(
  result: AlignmentResult,
  ref: EdgeRef,
): { movers: Mover[]; lo: number; hi: number } | null {
  const words = result.words;
  const w = words[ref.word];
  if (!w || !timed(w)) return null;
  let lo = 0;
  let hi = result.audio.duration;
  const movers: Mover[] = [];
  const t0 = edgeTime(result, ref);
  if (t0 === null) return null;
  const near = (x: number | null | undefined) => x !== null && x !== undefined && Math.abs(x - t0) < SAME;

  const wordEdge =
    ref.phone === null ||
    (ref.edge === 'start' && ref.phone === 0 && near(w.start)) ||
    (ref.edge === 'end' && ref.phone === w.phones.length - 1 && near(w.end));
  if (wordEdge) {
    const side = ref.edge;
    movers.push({ word: ref.word, phone: null, field: side });
    const edgePhone = side === 'start' ? 0 : w.phones.length - 1;
    if (w.phones.length && near(w.phones[edgePhone]![side]))
      movers.push({ word: ref.word, phone: edgePhone, field: side });
    const n = side === 'end' ? nextTimed(words, ref.word) : prevTimed(words, ref.word);
    const nw = n >= 0 ? words[n]! : undefined;
    const other = side === 'end' ? 'start' : 'end';
    if (nw && near(nw[other])) {
      // a shared boundary: the neighbour's edge (and its phone's) moves with it
      movers.push({ word: n, phone: null, field: other });
      const np = other === 'start' ? 0 : nw.phones.length - 1;
      if (nw.phones.length && near(nw.phones[np]![other])) movers.push({ word: n, phone: np, field: other });
    } else if (side === 'end') hi = Math.min(hi, nw ? nw.start! : hi);
    else lo = Math.max(lo, nw ? nw.end! : lo);
  } else {
    const k = ref.phone!;
    const side = ref.edge;
    movers.push({ word: ref.word, phone: k, field: side });
    const nk = side === 'end' ? k + 1 : k - 1;
    const other = side === 'end' ? 'start' : 'end';
    const np = w.phones[nk];
    if (np && near(np[other])) movers.push({ word: ref.word, phone: nk, field: other });
    else if (side === 'end') hi = Math.min(hi, np ? np.start : w.end!);
    else lo = Math.max(lo, np ? np.end : w.start!);
    // an inner phone boundary stays inside its word
    lo = Math.max(lo, w.start!);
    hi = Math.min(hi, w.end!);
  }
  for (const m of movers) {
    const w = words[m.word]!;
    const item = m.phone === null ? w : w.phones[m.phone]!;
    if (m.field === 'end') lo = Math.max(lo, (item.start ?? 0) + MIN_INTERVAL);
    else hi = Math.min(hi, (item.end ?? 0) - MIN_INTERVAL);
    if (m.phone !== null || w.phones.length === 0) continue;
    // A word edge whose phone does not move with it must not cut into that phone.
    const k = m.field === 'end' ? w.phones.length - 1 : 0;
    if (movers.some((x) => x.word === m.word && x.phone === k)) continue;
    if (m.field === 'end') lo = Math.max(lo, w.phones[k]!.end);
    else hi = Math.min(hi, w.phones[k]!.start);
  }
  return { movers, lo, hi };
}

/** Moves a boundary to `t` (clamped so nothing crosses); shared edges and edge phones follow. */
export function moveEdge(result: AlignmentResult, ref: EdgeRef, t: number): AlignmentResult {
  const linked = linkedEdges(result, ref);
  if (!linked || linked.lo > linked.hi + 1e-9) return result;
  const to = round(Math.min(linked.hi, Math.max(linked.lo, t)));
  const words = result.words.slice();
  const copied = new Set<number>();
  for (const m of linked.movers) {
    if (!copied.has(m.word)) {
      const w = words[m.word]!;
      words[m.word] = { ...w, phones: w.phones.map((p) => ({ ...p })) };
      copied.add(m.word);
    }
    const w = words[m.word]!;
    if (m.phone === null) w[m.field] = to;
    else w.phones[m.phone]![m.field] = to;
  }
  for (const i of copied) {
    const w = words[i]!;
    if (w.start !== null && w.end !== null) w.duration = round(w.end - w.start);
  }
  return { ...result, words };
}

/** The boundary's time after a nudge of `delta` seconds (clamped like a drag). */
export function nudgeEdge(result: AlignmentResult, ref: EdgeRef, delta: number): AlignmentResult {
  const t = edgeTime(result, ref);
  return t === null ? result : moveEdge(result, ref, t + delta);
}

function withWord(result: AlignmentResult, pos: number, f: (w: WordTiming) => WordTiming): AlignmentResult {
  const words = result.words.slice();
  const w = words[pos];
  if (!w) return result;
  words[pos] = f({ ...w, phones: w.phones.map((p) => ({ ...p })) });
  return { ...result, words };
}

export function setWordLabel(result: AlignmentResult, pos: number, label: string): AlignmentResult {
  const clean = label.trim();
  if (!clean || result.words[pos]?.word === clean) return result;
  return withWord(result, pos, (w) => ({ ...w, word: clean }));
}

export function setPhoneLabel(
  result: AlignmentResult,
  pos: number,
  k: number,
  label: string,
): AlignmentResult {
  const clean = label.trim();
  const p = result.words[pos]?.phones[k];
  if (!clean || !p || p.phone === clean) return result;
  return withWord(result, pos, (w) => {
    const q = w.phones[k]!;
    q.phone = clean;
    if (q.ipa !== undefined) q.ipa = clean;
    return w;
  });
}

/** Splits phone k at `t` into two phones with the same label; null when t is not inside it. */
export function splitPhone(
  result: AlignmentResult,
  pos: number,
  k: number,
  t: number,
): AlignmentResult | null {
  const p = result.words[pos]?.phones[k];
  if (!p || t < p.start + MIN_INTERVAL || t > p.end - MIN_INTERVAL) return null;
  const at = round(t);
  return withWord(result, pos, (w) => {
    const left: PhoneTiming = { ...p, end: at };
    const right: PhoneTiming = { ...p, start: at };
    w.phones.splice(k, 1, left, right);
    return w;
  });
}

/** Merges phone k with the one after it in the same word; null when there is none. */
export function mergePhones(result: AlignmentResult, pos: number, k: number): AlignmentResult | null {
  const w0 = result.words[pos];
  const a = w0?.phones[k];
  const b = w0?.phones[k + 1];
  if (!a || !b) return null;
  return withWord(result, pos, (w) => {
    const merged: PhoneTiming = { ...a, end: b.end, phone: a.phone + b.phone };
    if (a.ipa !== undefined || b.ipa !== undefined) merged.ipa = (a.ipa ?? a.phone) + (b.ipa ?? b.phone);
    delete merged.confidence;
    w.phones.splice(k, 2, merged);
    return w;
  });
}

/** What changed between the revision the editor opened and the draft, as a save body; null if nothing. */
export function revisionBody(
  base: AlignmentResult,
  draft: AlignmentResult,
  baseRevision: number,
): RevisionCreate | null {
  const words: NonNullable<RevisionCreate['words']> = [];
  const phones: NonNullable<RevisionCreate['phones']> = [];
  const wordPhones: NonNullable<RevisionCreate['word_phones']> = [];
  draft.words.forEach((d, i) => {
    const b = base.words[i];
    if (!b) return;
    const edit: (typeof words)[number] = { index: d.index };
    if (d.start !== b.start && d.start !== null) edit.start = d.start;
    if (d.end !== b.end && d.end !== null) edit.end = d.end;
    if (d.word !== b.word) edit.word = d.word;
    if (Object.keys(edit).length > 1) words.push(edit);
    if (d.phones.length !== b.phones.length) {
      wordPhones.push({
        word_index: d.index,
        phones: d.phones.map((p) => ({ phone: p.phone, start: p.start, end: p.end })),
      });
      return;
    }
    d.phones.forEach((p, k) => {
      const q = b.phones[k]!;
      const e: (typeof phones)[number] = { word_index: d.index, index: k };
      if (p.start !== q.start) e.start = p.start;
      if (p.end !== q.end) e.end = p.end;
      if (p.phone !== q.phone) e.phone = p.phone;
      if (Object.keys(e).length > 2) phones.push(e);
    });
  });
  if (!words.length && !phones.length && !wordPhones.length) return null;
  return {
    base_revision: baseRevision,
    ...(words.length && { words }),
    ...(phones.length && { phones }),
    ...(wordPhones.length && { word_phones: wordPhones }),
  };
}

/** Positions of the words to check first: not found, or below LOW_CONFIDENCE. */
export function wordsToCheck(result: AlignmentResult): number[] {
  return result.words.flatMap((w, i) =>
    w.status === 'not_found' || w.confidence < LOW_CONFIDENCE ? [i] : [],
  );
}

/** Where a word without a time is shown: at the end of the timed word before it (0 at the start). */
export function missingAt(result: AlignmentResult, pos: number): number {
  const p = prevTimed(result.words, pos);
  return p >= 0 ? result.words[p]!.end! : 0;
}

/** The words whose time lies inside [start, end], joined: the default text to re-align a stretch. */
export function textBetween(result: AlignmentResult, start: number, end: number): string {
  return result.words
    .filter((w) => w.start !== null && w.end !== null && w.end > start && w.start < end)
    .map((w) => w.word)
    .join(' ');
}

/** The interval of the tier at time t: a word position, or [word, phone]. */
export function wordAtTime(result: AlignmentResult, t: number): number {
  return result.words.findIndex((w) => w.start !== null && w.end !== null && t >= w.start && t < w.end);
}
