// Builds the finite-state grammar the HMM search runs: the transcript's units in order, each a set of
// alternative pronunciations, with optional garbage (a phone loop) where audio may hold speech that is not
// in the text, optional units where the text may hold words that are not in the audio, and an optional open
// end for long-audio windows. pocketsphinx inserts optional silence and noise fillers at every state by
// itself (fsgusefiller).
//
// The graph is built here rather than compiled from JSGF: pocketsphinx's JSGF compiler turns every optional
// item into empty transitions and then closes them transitively, so a chain of n optional words costs n²/2
// empty arcs, all walked at every frame (a 700-word grammar decoded twenty times slower than real time).
// Here every state keeps a handful of arcs: empty arcs are closed only over a few hops.

export interface FsgArc {
  from: number;
  to: number;
  /** dictionary word, or null for an empty transition */
  word: string | null;
  /** probability in (0, 1] */
  prob: number;
  /**
   * Instead of prob: natural-log weight below what a probability can express. pocketsphinx divides
   * transition log-probabilities by 2^10 before adding them to acoustic scores, so a probability of 1e-10
   * weighs about as much as one frame of acoustic mismatch.
   */
  logWeight?: number;
  /** the index of the unit (in the list the grammar was built from) whose spelling this word arc is part of */
  unit?: number;
}

export interface Fsg {
  states: number;
  start: number;
  final: number;
  arcs: FsgArc[];
  /** the states between units (not inside a unit's spelling): where a pause between words may fall */
  wordEdges?: number[];
}

export interface GrammarUnit {
  /** grammar-safe dictionary names of the unit's whole-word pronunciations */
  alternatives?: string[];
  /** or: a spelling in slots, each a set of alternative word sequences ([] = the slot may be silent) */
  slots?: string[][][];
  /** the unit may be skipped (weight of taking it, in (0, 1]) */
  skippable?: number;
}

export interface GrammarOptions {
  /** dictionary names of single-phone words forming the garbage loops */
  garbage: string[];
  /** probability of each garbage phone between two units; 0: no garbage between units */
  garbageWeight: number;
  /** or its natural-log weight, for weights below what a probability can express */
  garbageLogWeight?: number;
  /** allow the path to end after any unit (long-audio windows cut inside the text) */
  openEnd: boolean;
  /**
   * Also a loop before the first unit and after the last: speech the text leaves out at either end. Off,
   * the silence fillers absorb what precedes or follows the speech, and the loop does not compete with
   * the first and last words.
   */
  garbageEnds?: boolean;
  /** natural-log weight of each phone of the loops at the ends (garbageEnds); default garbageLogWeight */
  endsLogWeight?: number;
  /**
   * A loop before the first unit alone, each phone at this natural-log weight: a window that may begin
   * with speech its text does not hold (the first window of a long recording: an introduction).
   */
  headLogWeight?: number;
  /** natural-log weight of each garbage phone after an open end (the rest of the window) */
  tailLogWeight?: number;
  /** at most this many units skipped in the start's one hop (default: OPEN_HEAD_SKIP_MAX with openEnd) */
  headSkipMax?: number;
}

/** Empty transitions are followed over at most this many hops (consecutive skipped words or silent slots). */
export const MAX_EMPTY_HOPS = 6;

/** Open-ended windows: at most this many units skipped at the start in one hop. */
export const OPEN_HEAD_SKIP_MAX = 40;

export function buildGrammar(units: GrammarUnit[], opts: GrammarOptions): Fsg {
  const arcs: FsgArc[] = [];
  let states = 1;
  const boundary: number[] = [0];
  units.forEach((u, unit) => {
    const from = boundary[boundary.length - 1]!;
    const take = u.skippable !== undefined && u.skippable < 1 ? u.skippable : 1;
    const to = states++;
    if (u.slots?.length) {
      const spelled = u.slots.filter((slot) => slot.some((seq) => seq.length > 0));
      let cur = from;
      spelled.forEach((slot, j) => {
        const next = j === spelled.length - 1 ? to : states++;
        // The first slot carries the cost of taking the unit, so a skip competes with the whole word.
        const p = j === 0 ? take : 1;
        const seen = new Set<string>();
        for (const seq of slot) {
          const key = seq.join(' ');
          if (seen.has(key)) continue;
          seen.add(key);
          if (seq.length === 0) {
            arcs.push({ from: cur, to: next, word: null, prob: p });
            continue;
          }
          let at = cur;
          seq.forEach((w, k) => {
            const dest = k === seq.length - 1 ? next : states++;
            arcs.push({ from: at, to: dest, word: w, prob: k === 0 ? p : 1, unit });
            at = dest;
          });
        }
        cur = next;
      });
      if (spelled.length === 0) arcs.push({ from, to, word: null, prob: 1 });
    } else {
      for (const w of new Set(u.alternatives ?? [])) arcs.push({ from, to, word: w, prob: take, unit });
      if ((u.alternatives ?? []).length === 0) arcs.push({ from, to, word: null, prob: 1 });
    }
    if (take < 1) arcs.push({ from, to, word: null, prob: 1 - take });
    boundary.push(to);
  });
  if (opts.garbage.length && (opts.garbageWeight > 0 || opts.garbageLogWeight !== undefined)) {
    // Between words; at either end only with garbageEnds (see there).
    const ends = new Set([boundary[0]!, boundary[boundary.length - 1]!]);
    for (const b of opts.garbageEnds ? boundary : boundary.slice(1, -1)) {
      const logWeight = ends.has(b) ? (opts.endsLogWeight ?? opts.garbageLogWeight) : opts.garbageLogWeight;
      for (const g of opts.garbage)
        arcs.push({ from: b, to: b, word: g, prob: opts.garbageWeight, logWeight });
    }
  }
  if (opts.garbage.length && opts.headLogWeight !== undefined && !opts.garbageEnds)
    for (const g of opts.garbage)
      arcs.push({ from: boundary[0]!, to: boundary[0]!, word: g, prob: 0, logWeight: opts.headLogWeight });
  let final = boundary[boundary.length - 1]!;
  if (opts.openEnd) {
    final = states++;
    for (const b of boundary) arcs.push({ from: b, to: final, word: null, prob: 1 });
    if (opts.garbage.length && opts.tailLogWeight !== undefined)
      for (const g of opts.garbage)
        arcs.push({ from: final, to: final, word: g, prob: 0, logWeight: opts.tailLogWeight });
  }
  const closed = closeEmpty(arcs, states);
  // A transcript often runs on past the audio (or starts before it). Such a run is one event, not one per
  // word: it is skipped in one hop at the price of one skipped word, whatever its length. (Costs add up in
  // the search's scores; a run priced per word, or even two words, falls outside the word beam and is never taken.)
  const skipLog = units.map((u) =>
    u.skippable !== undefined && u.skippable < 1 ? Math.log(1 - u.skippable) : -Infinity,
  );
  // In an open-ended window the start run is bounded: the window's text may begin a little before its
  // audio (the previous window committed too few words), but a long jump would land on a later repetition
  // of the same sentence as readily as on the right place.
  const headMax = opts.headSkipMax ?? (opts.openEnd ? OPEN_HEAD_SKIP_MAX : units.length);
  for (let i = 0; i < Math.min(units.length - 1, headMax) && skipLog[i]! > -Infinity; i++)
    if (i >= 1) closed.push({ from: 0, to: boundary[i + 1]!, word: null, prob: 0, logWeight: skipLog[i]! });
  for (let i = units.length - 1; i > 0 && skipLog[i]! > -Infinity && !opts.openEnd; i--)
    if (units.length - i >= 2)
      closed.push({ from: boundary[i]!, to: final, word: null, prob: 0, logWeight: skipLog[i]! });
  return {
    states,
    start: 0,
    final,
    arcs: bestEmpty(closed),
    wordEdges: final === boundary[boundary.length - 1] ? boundary : [...boundary, final],
  };
}

/**
 * The search follows one empty transition per frame and per word exit, so chains of them are replaced by
 * direct arcs (best product of probabilities), up to MAX_EMPTY_HOPS long.
 */
export function closeEmpty(arcs: FsgArc[], states: number): FsgArc[] {
  const empties = new Map<number, FsgArc[]>();
  for (const a of arcs)
    if (a.word === null && a.from !== a.to) empties.set(a.from, [...(empties.get(a.from) ?? []), a]);
  if (empties.size === 0) return arcs;
  const out = arcs.filter((a) => a.word !== null);
  for (let s = 0; s < states; s++) {
    if (!empties.has(s)) continue;
    const best = new Map<number, number>();
    let frontier = new Map<number, number>([[s, 1]]);
    for (let hop = 0; hop < MAX_EMPTY_HOPS && frontier.size; hop++) {
      const next = new Map<number, number>();
      for (const [at, p] of frontier) {
        for (const a of empties.get(at) ?? []) {
          const q = p * a.prob;
          if (a.to === s || q <= (best.get(a.to) ?? 0)) continue;
          best.set(a.to, q);
          next.set(a.to, q);
        }
      }
      frontier = next;
    }
    for (const [to, prob] of best) out.push({ from: s, to, word: null, prob });
  }
  return out;
}

const weightOf = (a: FsgArc): number => a.logWeight ?? Math.log(a.prob);

/** One empty arc per pair of states: the heavier one. */
function bestEmpty(arcs: FsgArc[]): FsgArc[] {
  const best = new Map<string, FsgArc>();
  const out: FsgArc[] = [];
  for (const a of arcs) {
    if (a.word !== null) {
      out.push(a);
      continue;
    }
    const key = `${a.from}>${a.to}`;
    const had = best.get(key);
    if (!had || weightOf(a) > weightOf(had)) best.set(key, a);
  }
  return [...out, ...best.values()];
}

/** A free loop over the given words (recognition without a language model). */
export function wordLoop(words: string[]): Fsg {
  const arcs: FsgArc[] = [];
  const p = 1 / words.length;
  for (const w of words) {
    arcs.push({ from: 0, to: 1, word: w, prob: p });
    arcs.push({ from: 1, to: 1, word: w, prob: p });
  }
  return { states: 2, start: 0, final: 1, arcs };
}
