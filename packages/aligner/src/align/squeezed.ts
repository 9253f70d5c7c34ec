// Words the search left out. Two cases, each searched for again locally and judged by how the word fits:
// - a short word ("on", "the", "your") between two neighbours that touch, whose audio the neighbours took
//   between them, on clean speech: searched with its two neighbours and without the garbage path (no
//   skipping), over the stretch the neighbours hold; kept when it places all three and the word fits its
//   audio about as well as the recording's words fit theirs;
// - a run of words left out where the neighbours leave a gap (hoarse, noisy or mumbled speech, where
//   silence fits the audio better than the words do and the search skips them): searched with its
//   neighbours, every word forced in (WindowRequest.forced), over the gap and the neighbours; kept when
//   every word also fits by its goodness of pronunciation (the forced path against the free phone loop
//   over the same frames), which a word that is not in the audio fails by far.
// A word that is not in the audio fits badly where it is forced and stays not_found.
import { placeable as canPlace } from '../acoustic/backend.ts';
import type { Unit, UnitSpan } from '../acoustic/backend.ts';
import type { Stretch, StretchSearches } from './long-audio.ts';

/** Neighbours closer than this leave no room for the word: it was squeezed out, not skipped. */
const TOUCHING = 0.03;
/** A placed word fits well enough when its probability is at most this far below the recording's median. */
const BELOW_MEDIAN = 0.1;
const PAD = 0.02;
/** Above this share of words not found (and more than one), the transcript is judged, not repaired. */
const MAX_MISSING_SHARE = 0.1;
/** Runs of at most this many words left out are searched for again (the forced search is local). */
const RUN_MAX = 12;
/** A forced local search covers at most this many seconds (neighbours included). */
const LOCAL_MAX = 15;
/**
 * A forced word fits when its goodness of pronunciation is at most this (nats per frame above the free
 * phone loop). Measured: words said, placed by the full search, mostly -3 to 3; words of hoarse, noisy
 * speech the search had skipped, forced in, up to 8.5; foreign words inserted in a TIMIT transcript and
 * forced in, 11.6 to 15.2, and their neighbours' up to 17.8 (docs/benchmarks.md, issue 26).
 */
const GOP_MAX = 10;
/** Placed words searched again on each side of a forced run: the nearest, then three. */
const CONTEXTS = [1, 3];

/**
 * `spans` (in unit order) with the words left out placed where they fit (see the head of this file).
 * `searches`: the recording's stretch searches without the garbage path (align/long-audio.ts); with piece
 * threads, the searches the spans as they are ask for first are shared out ahead, and each is still judged
 * in turn here. `total`: the recording's seconds.
 */
export async function placeSqueezed(
  searches: Pick<StretchSearches, 'get' | 'prefetch' | 'close'>,
  units: Unit[],
  spans: UnitSpan[],
  total: number,
): Promise<UnitSpan[]> {
  const byUnit = new Map(spans.map((s) => [s.unit, s]));
  // Many words missing is a transcript that does not match the audio, not words squeezed out: placing
  // some of them would make a wrong transcript look better than it is (the verdict reads what is found).
  const placeable = units.filter(canPlace).length;
  if (placeable - spans.length > Math.max(1, MAX_MISSING_SHARE * placeable)) return spans;
  const ps = spans.map((s) => s.confidence).sort((a, b) => a - b);
  const median = ps.length ? ps[Math.floor(ps.length / 2)]! : 0;
  const placeableAt = (u: number) => canPlace(units[u]!);
  // the placed word nearest before unit u (exclusive), and after it
  const endBefore = (u: number) => {
    for (let k = u - 1; k >= 0; k--) {
      const s = byUnit.get(k);
      if (s) return s.end;
    }
    return 0;
  };
  const startAfter = (u: number) => {
    for (let k = u + 1; k < units.length; k++) {
      const s = byUnit.get(k);
      if (s) return s.start;
    }
    return total;
  };

  /** The run of words not placed from unit i: [i, j), and whether it is one word squeezed out. */
  const runFrom = (i: number): { j: number; squeezed: boolean } => {
    let j = i;
    while (j < units.length && !byUnit.has(j)) j++;
    const prev = byUnit.get(i - 1);
    const next = byUnit.get(j);
    return { j, squeezed: j === i + 1 && !!prev && !!next && next.start - prev.end < TOUCHING };
  };

  /** Unit i between neighbours that touch, searched with them: a little margin, never into the words around. */
  const squeezedStretch = (i: number): Stretch => {
    const prev = byUnit.get(i - 1)!;
    const next = byUnit.get(i + 1)!;
    const from = Math.max(endBefore(i - 1), prev.start - PAD);
    const to = Math.min(startAfter(i + 1), next.end + PAD);
    return { u0: i - 1, u1: i + 2, from, to };
  };

  /**
   * Units [i, j), none placed, forced in with `context` placed words on each side (or the file's ends);
   * null when the run is not searched (no placeable word, too many, or a stretch too long).
   */
  const forcedStretch = (i: number, j: number, context: number): Stretch | null => {
    let run = 0;
    for (let u = i; u < j; u++) if (placeableAt(u)) run++;
    if (run === 0 || run > RUN_MAX) return null;
    let u0 = i;
    for (let n = 0, k = i - 1; k >= 0 && n < context; k--)
      if (byUnit.has(k)) {
        u0 = k;
        n++;
      }
    let u1 = j;
    for (let n = 0, k = j; k < units.length && n < context; k++)
      if (byUnit.has(k)) {
        u1 = k + 1;
        n++;
      }
    const first = byUnit.get(u0);
    const last = byUnit.get(u1 - 1);
    const from = first ? Math.max(endBefore(u0), first.start - PAD) : endBefore(i);
    const to = last ? Math.min(startAfter(u1 - 1), last.end + PAD) : startAfter(j - 1);
    if (to - from > LOCAL_MAX || to <= from) return null;
    return { u0, u1, from, to, forced: true };
  };

  // a search's outcome depends only on its stretch: the first search of each run as the spans are now goes
  // to the threads at once (a word placed below changes the stretches next to it only)
  const ahead: Stretch[] = [];
  for (let i = 0; i < units.length; i++) {
    if (byUnit.has(i) || !placeableAt(i)) continue;
    const { j, squeezed } = runFrom(i);
    const first = squeezed ? squeezedStretch(i) : forcedStretch(i, j, CONTEXTS[0]!);
    if (first) ahead.push(first);
    i = j - 1;
  }
  searches.prefetch(ahead);
  try {
    for (let i = 0; i < units.length; i++) {
      if (byUnit.has(i) || !placeableAt(i)) continue;
      const { j, squeezed } = runFrom(i);
      if (squeezed) await squeezedOut(i);
      else await forcedRun(i, j);
      i = j - 1;
    }
  } finally {
    // the searches asked ahead for runs that a word placed before them changed are not run
    searches.close();
  }

  /** Unit i between neighbours that touch (see the head of this file). */
  async function squeezedOut(i: number): Promise<void> {
    const local = await searches.get(squeezedStretch(i));
    if (local.length !== 3 || local.some((s, k) => s.unit !== k)) return;
    const word = local[1]!;
    if (word.confidence < median - BELOW_MEDIAN) return;
    byUnit.set(i - 1, { ...local[0]!, unit: i - 1 });
    byUnit.set(i, { ...word, unit: i });
    byUnit.set(i + 1, { ...local[2]!, unit: i + 1 });
  }

  /**
   * Units [i, j), none placed, forced in with CONTEXTS[k] placed words on each side, searched again with
   * them (see the head of this file); the wider context when the narrower fails: the words next to a run
   * the search skipped were often stretched over part of its audio.
   */
  async function forcedRun(i: number, j: number): Promise<void> {
    for (const context of CONTEXTS) {
      const stretch = forcedStretch(i, j, context);
      if (!stretch) return;
      const { u0, u1 } = stretch;
      const local = await searches.get(stretch);
      let want = 0;
      for (let u = u0; u < u1; u++) if (placeableAt(u)) want++;
      // every word must fit by its goodness of pronunciation, the context's too (a word forced in where
      // it is not said spoils its neighbours'). Not by its probability against the recording's median, as
      // a squeezed word: hoarse words forced in score 0.80-0.86 against a median of 0.96 and fit by
      // their goodness of pronunciation, which foreign words forced into TIMIT fail (above).
      const fits = local.length === want && local.every((s) => s.gop !== undefined && s.gop <= GOP_MAX);
      if (!fits) continue;
      for (const s of local) byUnit.set(s.unit + u0, { ...s, unit: s.unit + u0 });
      return;
    }
  }
  return [...byUnit.values()].sort((a, b) => a.unit - b.unit);
}
