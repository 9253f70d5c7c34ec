// What hand corrections teach about edges directly: where a model puts a word's start or end against
// where people put it, in the corpus's hand-corrected recordings. The mean signed offset is kept per
// kind of edge (a word's start or end), per broad class of the phones on either side (vowel, stop,
// fricative, nasal, liquid or glide; a pause when the word touches silence), each mean shrunk towards
// its kind's mean (a start or an end, at a pause or between words) and that one towards 0, by how many
// edges it rests on. An adapted model's folder stores the table (model-dir.ts); an alignment with that
// model moves each word's edges by it (engine.ts), keeping words in order and phones at least a frame.
//
// Only the corpus's own corrections train it: a model adapted from transcripts alone has none.
import type { UnitSpan } from '../../backend.ts';

/** Broad classes of phones, and P: a pause (silence, the recording's edge, an unplaced neighbour). */
export type BroadClass = 'V' | 'S' | 'F' | 'N' | 'L' | 'X';

/** Counts an entry's mean is shrunk by, towards its parent (the kind's mean) and the parent towards 0. */
export const EDGE_SHRINK = 10;
export const EDGE_SHRINK_PARENT = 20;
/** A word's edge further than this from the person's (s) is clipped to it: a misplaced word is not a bias. */
export const EDGE_CLIP = 0.1;
/** Neighbouring words further apart than this (s) have a pause between them. */
export const PAUSE_GAP = 0.005;
/** A phone keeps at least this long (s) when a word's edges move. */
const MIN_PHONE = 0.01;

export const EDGES_FILE = 'tazamun-edges.json';

export interface EdgeCorrection {
  format: 1;
  /** model phone -> broad class (the classes the table was learnt with) */
  classes: Record<string, BroadClass>;
  shrink: number;
  shrinkParent: number;
  /** per key (`s:LR` / `e:LR`, and the parents `s:P` `s:J` `e:P` `e:J`): edges and their mean signed offset (s, model minus person) */
  entries: Record<string, { n: number; mean: number }>;
  /** words and edges it was learnt from */
  words: number;
}

const VOWELS = new Set([...'aeiouyɑɐɒæɛəɜɝɚɪɨʉʊʌɔøœɤɯɵɘᵻɞʏ']);
const STOPS = new Set([...'pbtdkgɡqʔcɟʈɖɢ']);
const FRICATIVES = new Set([...'fvθðszʃʒxɣχʁħʕhɦçʝɸβɬɮʂʐɕʑ']);
const NASALS = new Set([...'mnŋɲɳɱɴ']);
const LIQUIDS = new Set([...'lɹrɾwjɥʎɫɻʋɰɭ']);

/** The broad class of an IPA phone, by its first symbol (affricates are stops, nasal vowels vowels). */
export function broadClass(ipa: string): BroadClass {
  const c = [...ipa.normalize('NFD')][0] ?? '';
  if (VOWELS.has(c)) return 'V';
  if (STOPS.has(c)) return 'S';
  if (FRICATIVES.has(c)) return 'F';
  if (NASALS.has(c)) return 'N';
  if (LIQUIDS.has(c)) return 'L';
  return 'X';
}

/** Each model phone's class, from the IPA it natively stands for (phone-map.ts PhoneSet.native). */
export function phoneClasses(native: Record<string, readonly string[]>): Record<string, BroadClass> {
  const out: Record<string, BroadClass> = {};
  for (const [phone, ipas] of Object.entries(native)) if (ipas[0]) out[phone] = broadClass(ipas[0]);
  return out;
}

/** A placed word as both the result and the search's spans see it: its edges and edge phones. */
export interface EdgeWord {
  start: number;
  end: number;
  /** the model's label of its first and last phone ('' when unknown) */
  first: string;
  last: string;
}

/** The keys of a word's start and end among its placed neighbours (in time order). */
export function edgeKeys(
  words: readonly EdgeWord[],
  i: number,
  classes: Record<string, BroadClass>,
): { start: string; end: string } {
  const w = words[i]!;
  const prev = words[i - 1];
  const next = words[i + 1];
  const cls = (p: string): string => classes[p] ?? 'X';
  const left = !prev || w.start - prev.end > PAUSE_GAP ? 'P' : cls(prev.last);
  const right = !next || next.start - w.end > PAUSE_GAP ? 'P' : cls(next.first);
  return { start: `s:${left}${cls(w.first)}`, end: `e:${cls(w.last)}${right}` };
}

const parentOf = (key: string): string => `${key.slice(0, 2)}${key.includes('P') ? 'P' : 'J'}`;

/** One word placed by the model and by a person (seconds). */
export interface EdgePair {
  model: EdgeWord;
  person: { start: number; end: number };
}

/**
 * Learns the table from recordings aligned by the model, each a list of its placed words in time order
 * with the person's times of those a person placed (null for the others).
 */
export function learnEdgeCorrection(
  recordings: readonly {
    words: readonly EdgeWord[];
    person: readonly ({ start: number; end: number } | null)[];
  }[],
  classes: Record<string, BroadClass>,
): EdgeCorrection {
  const sums = new Map<string, { n: number; sum: number }>();
  const add = (key: string, d: number) => {
    const clipped = Math.max(-EDGE_CLIP, Math.min(EDGE_CLIP, d));
    for (const k of [key, parentOf(key)]) {
      const e = sums.get(k) ?? { n: 0, sum: 0 };
      e.n++;
      e.sum += clipped;
      sums.set(k, e);
    }
  };
  let words = 0;
  for (const r of recordings)
    r.words.forEach((w, i) => {
      const p = r.person[i];
      if (!p) return;
      words++;
      const keys = edgeKeys(r.words, i, classes);
      add(keys.start, w.start - p.start);
      add(keys.end, w.end - p.end);
    });
  const entries: EdgeCorrection['entries'] = {};
  for (const [k, e] of [...sums].sort(([a], [b]) => a.localeCompare(b)))
    entries[k] = { n: e.n, mean: Math.round((e.sum / e.n) * 1e5) / 1e5 };
  return { format: 1, classes, shrink: EDGE_SHRINK, shrinkParent: EDGE_SHRINK_PARENT, entries, words };
}

/** The shift (s) an edge of this key gets: minus its shrunk mean offset. */
export function edgeShift(c: EdgeCorrection, key: string): number {
  const p = c.entries[parentOf(key)];
  const parent = p ? (p.n * p.mean) / (p.n + c.shrinkParent) : 0;
  const e = c.entries[key];
  const offset = e ? (e.n * e.mean + c.shrink * parent) / (e.n + c.shrink) : parent;
  return -offset;
}

/**
 * Moves placed words' edges by the table. `words` in time order; returns their new edges, with words
 * kept in order (a word never ends after the next starts: two edges that cross meet halfway), inside
 * [0, duration], and no shorter than they were or 30 ms, whichever is less.
 */
export function correctedEdges(
  words: readonly EdgeWord[],
  c: EdgeCorrection,
  duration: number,
): { start: number; end: number }[] {
  const out = words.map((w, i) => {
    const keys = edgeKeys(words, i, c.classes);
    let ds = edgeShift(c, keys.start);
    let de = edgeShift(c, keys.end);
    const len = w.end - w.start;
    const minLen = Math.min(len, 0.03);
    // a word drawn shorter than minLen keeps minLen: both shifts scaled back together
    if (len + de - ds < minLen && de - ds < 0) {
      const f = Math.max(0, Math.min(1, (minLen - len) / (de - ds)));
      ds *= f;
      de *= f;
    }
    return { start: Math.max(0, w.start + ds), end: Math.min(duration, w.end + de) };
  });
  for (let i = 0; i + 1 < out.length; i++) {
    const a = out[i]!;
    const b = out[i + 1]!;
    if (a.end > b.start) {
      const mid = Math.max(a.start, Math.min(b.end, (a.end + b.start) / 2));
      a.end = mid;
      b.start = mid;
    }
  }
  return out.map((e) => ({ start: round(e.start), end: round(e.end) }));
}

/**
 * The search's spans with each word's edges corrected (the spans of one word, `wordOf` its index, move
 * together: the first one's start and the last one's end, with the phones at those edges; phones inside
 * keep their edges unless a moved edge passes them).
 */
export function correctSpans(
  spans: readonly UnitSpan[],
  wordOf: (unit: number) => number,
  c: EdgeCorrection,
  duration: number,
): UnitSpan[] {
  const groups: UnitSpan[][] = [];
  for (const s of [...spans].sort((a, b) => a.start - b.start || a.unit - b.unit)) {
    const g = groups[groups.length - 1];
    if (g && wordOf(g[0]!.unit) === wordOf(s.unit)) g.push(s);
    else groups.push([s]);
  }
  const words: EdgeWord[] = groups.map((g) => {
    const last = g[g.length - 1]!;
    return {
      start: g[0]!.start,
      end: last.end,
      first: g[0]!.phones[0]?.phone ?? '',
      last: last.phones[last.phones.length - 1]?.phone ?? '',
    };
  });
  const edges = correctedEdges(words, c, duration);
  const out = new Map<UnitSpan, UnitSpan>();
  groups.forEach((g, gi) => {
    const { start, end } = edges[gi]!;
    const copies = g.map((s) => ({ ...s, phones: s.phones.map((p) => ({ ...p })) }));
    const phones = copies.flatMap((s) => s.phones);
    if (phones.length) {
      // the phones' edges in order, the outer two replaced; a phone keeps at least minPhone and none
      // crosses its neighbour (a backward pass: each edge at most the next one, less a phone's minimum)
      const e = phones.flatMap((p) => [p.start, p.end]);
      e[0] = start;
      e[e.length - 1] = end;
      const minPhone = Math.min(MIN_PHONE, (end - start) / phones.length);
      for (let i = 1; i < e.length - 1; i++) e[i] = Math.max(e[i]!, e[i - 1]! + (i % 2 ? minPhone : 0));
      for (let i = e.length - 2; i >= 0; i--) e[i] = Math.min(e[i]!, e[i + 1]! - (i % 2 ? 0 : minPhone));
      phones.forEach((p, k) => {
        p.start = round(e[2 * k]!);
        p.end = round(e[2 * k + 1]!);
      });
      for (const s of copies)
        if (s.phones.length) {
          s.start = s.phones[0]!.start;
          s.end = s.phones[s.phones.length - 1]!.end;
        }
    }
    copies[0]!.start = start;
    copies[copies.length - 1]!.end = end;
    g.forEach((s, k) => out.set(s, copies[k]!));
  });
  return spans.map((s) => out.get(s)!);
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}

/**
 * The spans with an adapted model's own phones named as the phones they were cloned from (ʕ as HH), for
 * the steps that know the base model's phones by name (align/refine.ts's fricative onsets); null when
 * the model added none. `restoreLabels` puts the model's own names back afterwards.
 */
export function asStandIns(
  spans: readonly UnitSpan[],
  extra: readonly { phone: string; from: string }[] | undefined,
): UnitSpan[] | null {
  if (!extra?.length) return null;
  const from = new Map(extra.map((e) => [e.phone, e.from]));
  return spans.map((s) => ({
    ...s,
    phones: s.phones.map((p) => ({ ...p, phone: from.get(p.phone) ?? p.phone })),
  }));
}

/** `moved`'s times with `named`'s phone labels (the same spans and phones, in the same order). */
export function restoreLabels(moved: readonly UnitSpan[], named: readonly UnitSpan[]): UnitSpan[] {
  return moved.map((s, i) => ({
    ...s,
    phones: s.phones.map((p, k) => ({ ...p, phone: named[i]!.phones[k]!.phone })),
  }));
}
