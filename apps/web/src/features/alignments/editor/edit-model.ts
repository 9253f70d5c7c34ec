// The editor's operations on a result, as pure functions: each returns a new result (the undo history
// keeps the old ones) and never leaves intervals out of order, overlapping or shorter than MIN.
import type { AlignmentResult, PhoneTiming, WordTiming } from '@tazamun/contracts/alignment-result';
import type { RevisionCreate } from '@tazamun/contracts/revisions';

/** One keyboard nudge, as in the issue: 5 ms. */
export const NUDGE = 0.005;
/** The shortest interval an edit may leave (one 5 ms step). */
export const MIN_INTERVAL = 0.005;
/** A finer nudge (Shift+arrow): 1 ms. */
export const FINE_NUDGE = 0.001;
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

/**
 * The boundary as the tiers draw it: a start shared with the end of the interval before is drawn (and
 * selected) as that end, so one boundary has one name whichever side reached it.
 */
export function canonicalEdge(result: AlignmentResult, ref: EdgeRef): EdgeRef {
  if (ref.edge === 'end') return ref;
  const words = result.words;
  const w = words[ref.word];
  if (!w || w.start === null) return ref;
  if (ref.phone === null) {
    const p = prevTimed(words, ref.word);
    return p >= 0 && Math.abs(words[p]!.end! - w.start) < SAME ? { word: p, phone: null, edge: 'end' } : ref;
  }
  const ph = w.phones[ref.phone];
  if (!ph) return ref;
  if (ref.phone > 0) {
    const before = w.phones[ref.phone - 1]!;
    return Math.abs(before.end - ph.start) < SAME
      ? { word: ref.word, phone: ref.phone - 1, edge: 'end' }
      : ref;
  }
  for (let i = ref.word - 1; i >= 0; i--) {
    const last = words[i]!.phones.at(-1);
    if (!last) continue;
    return Math.abs(last.end - ph.start) < SAME
      ? { word: i, phone: words[i]!.phones.length - 1, edge: 'end' }
      : ref;
  }
  return ref;
}

/** The times a boundary may take (what a drag or a nudge is clamped to); null for a word without time. */
export function edgeRange(result: AlignmentResult, ref: EdgeRef): { lo: number; hi: number } | null {
  const linked = linkedEdges(result, ref);
  return linked ? { lo: linked.lo, hi: linked.hi } : null;
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
    // the label is IPA (the tier a person reads); model_phone keeps what the acoustic model aligned
    q.phone = clean;
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
    const merged: PhoneTiming = {
      ...a,
      end: b.end,
      phone: a.phone + b.phone,
      model_phone: [a.model_phone, b.model_phone].filter(Boolean).join(' '),
    };
    // one label for the two: a stand-in for either part is a stand-in for the whole
    if (a.approximated || b.approximated) merged.approximated = true;
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
        phones: d.phones.map((p) => ({
          phone: p.phone,
          model_phone: p.model_phone,
          start: p.start,
          end: p.end,
          ...(p.approximated ? { approximated: true } : {}),
        })),
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

/**
 * Positions of the words to check first: not found, placed below the account's confidence threshold,
 * or named by the verdict as fitting their audio poorly (`poorFit`, word indices).
 */
export function wordsToCheck(
  result: AlignmentResult,
  threshold: number,
  poorFit: ReadonlySet<number> = new Set(),
): number[] {
  return result.words.flatMap((w, i) =>
    w.status === 'not_found' || w.confidence < threshold || poorFit.has(w.index) ? [i] : [],
  );
}

/** Where a word without a time is shown: at the end of the timed word before it (0 at the start). */
export function missingAt(result: AlignmentResult, pos: number): number {
  const p = prevTimed(result.words, pos);
  return p >= 0 ? result.words[p]!.end! : 0;
}

/**
 * The words a re-aligned stretch [start, end] replaces, as the server chooses them
 * (apps/server/src/revisions/splice-stretch.ts): every timed word it touches, the window widening over a
 * word it cuts, except a word corrected by hand that it only cuts (the window stops at its edge), and
 * the words not found between them. Positions [from, to) and the widened window.
 */
export function stretchWords(
  result: AlignmentResult,
  start: number,
  end: number,
): { from: number; to: number; start: number; end: number; kept: number[] } {
  let s = start;
  let e = end;
  const kept: number[] = [];
  result.words.forEach((w, i) => {
    if (!timed(w) || !(w.start! < e && w.end! > s)) return;
    const cut = w.start! < start - 1e-6 || w.end! > end + 1e-6;
    if (w.hand_corrected && cut) {
      kept.push(i);
      if (w.start! < start) s = Math.max(s, w.end!);
      else e = Math.min(e, w.start!);
      return;
    }
    s = Math.min(s, w.start!);
    e = Math.max(e, w.end!);
  });
  let prev = -1;
  let next = result.words.length;
  result.words.forEach((w, i) => {
    if (!timed(w)) return;
    if (w.end! <= s) prev = i;
    else if (w.start! >= e && next === result.words.length) next = i;
  });
  return { from: prev + 1, to: next, start: Math.max(0, s), end: Math.min(result.audio.duration, e), kept };
}

/** The text of the words a stretch replaces: the default text to re-align it with. */
export function textBetween(result: AlignmentResult, start: number, end: number): string {
  const st = stretchWords(result, start, end);
  return result.words
    .slice(st.from, st.to)
    .map((w) => w.word)
    .join(' ');
}

/** The interval of the tier at time t: a word position, or [word, phone]. */
export function wordAtTime(result: AlignmentResult, t: number): number {
  return result.words.findIndex((w) => w.start !== null && w.end !== null && t >= w.start && t < w.end);
}
