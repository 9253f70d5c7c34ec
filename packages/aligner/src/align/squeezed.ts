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
import type { AcousticBackend, Precision, Unit, UnitSpan } from '../acoustic/backend.ts';
import { SAMPLE_RATE } from '../audio/decode.ts';
import type { Samples } from '../audio/pcm.ts';

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

export async function placeSqueezed(
  backend: AcousticBackend,
  samples: Samples,
  units: Unit[],
  spans: UnitSpan[],
  precision: Precision,
): Promise<UnitSpan[]> {
  const byUnit = new Map(spans.map((s) => [s.unit, s]));
  // Many words missing is a transcript that does not match the audio, not words squeezed out: placing
  // some of them would make a wrong transcript look better than it is (the verdict reads what is found).
  const placeable = units.filter(canPlace).length;
  if (placeable - spans.length > Math.max(1, MAX_MISSING_SHARE * placeable)) return spans;
  const ps = spans.map((s) => s.confidence).sort((a, b) => a - b);
  const median = ps.length ? ps[Math.floor(ps.length / 2)]! : 0;
  const total = samples.length / SAMPLE_RATE;
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
  for (let i = 0; i < units.length; i++) {
    if (byUnit.has(i) || !placeableAt(i)) continue;
    // the run of words not placed from i: [i, j)
    let j = i;
    while (j < units.length && !byUnit.has(j)) j++;
    const prev = byUnit.get(i - 1);
    const next = byUnit.get(j);
    if (j === i + 1 && prev && next && next.start - prev.end < TOUCHING) {
      await squeezedOut(i, prev, next);
      continue;
    }
    await forcedRun(i, j);
    i = j - 1;
  }

  /** Unit i between neighbours that touch (see the head of this file). */
  async function squeezedOut(i: number, prev: UnitSpan, next: UnitSpan): Promise<void> {
    // a little margin, but never into the words around the three
    const t0 = Math.max(endBefore(i - 1), prev.start - PAD);
    const t1 = Math.min(startAfter(i + 1), next.end + PAD);
    const local = await backend.alignWindow({
      samples: samples.window(Math.floor(t0 * SAMPLE_RATE), Math.ceil(t1 * SAMPLE_RATE)),
      offset: t0,
      units: [units[i - 1]!, units[i]!, units[i + 1]!],
      precision,
      openEnd: false,
      garbage: false,
    });
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
    let run = 0;
    for (let u = i; u < j; u++) if (placeableAt(u)) run++;
    if (run === 0 || run > RUN_MAX) return;
    for (const context of CONTEXTS) {
      // the context-th placed word before i and after j (or the file's ends)
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
      const t0 = first ? Math.max(endBefore(u0), first.start - PAD) : endBefore(i);
      const t1 = last ? Math.min(startAfter(u1 - 1), last.end + PAD) : startAfter(j - 1);
      if (t1 - t0 > LOCAL_MAX || t1 <= t0) return;
      const local = await backend.alignWindow({
        samples: samples.window(Math.floor(t0 * SAMPLE_RATE), Math.ceil(t1 * SAMPLE_RATE)),
        offset: t0,
        units: units.slice(u0, u1),
        precision,
        openEnd: false,
        garbage: false,
        forced: true,
      });
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
