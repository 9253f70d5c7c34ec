// Words the search left out between two neighbours that touch: a short word ("on", "the", "your") whose
// audio the neighbours took between them, on clean speech. Each such word is searched for again locally,
// with its two neighbours and without the garbage path (no skipping), over the stretch the neighbours
// hold; the local answer replaces the neighbours when it places all three and the word fits its audio
// about as well as the recording's words fit theirs. A word that is not in the audio fits badly there and
// stays not_found.
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
  const placeable = units.filter((u) => u.prons.length > 0 || (u.lattice?.length ?? 0) > 0).length;
  if (placeable - spans.length > Math.max(1, MAX_MISSING_SHARE * placeable)) return spans;
  const ps = spans.map((s) => s.confidence).sort((a, b) => a - b);
  const median = ps.length ? ps[Math.floor(ps.length / 2)]! : 0;
  const total = samples.length / SAMPLE_RATE;
  for (let i = 1; i + 1 < units.length; i++) {
    if (byUnit.has(i) || (units[i]!.prons.length === 0 && !units[i]!.lattice?.length)) continue;
    const prev = byUnit.get(i - 1);
    const next = byUnit.get(i + 1);
    if (!prev || !next || next.start - prev.end >= TOUCHING) continue;
    // a little margin, but never into the words around the three
    const before = [...byUnit.values()].filter((s) => s.unit < i - 1).reduce((a, s) => Math.max(a, s.end), 0);
    const after = [...byUnit.values()]
      .filter((s) => s.unit > i + 1)
      .reduce((a, s) => Math.min(a, s.start), total);
    const t0 = Math.max(before, prev.start - PAD);
    const t1 = Math.min(after, next.end + PAD);
    const local = await backend.alignWindow({
      samples: samples.window(Math.floor(t0 * SAMPLE_RATE), Math.ceil(t1 * SAMPLE_RATE)),
      offset: t0,
      units: [units[i - 1]!, units[i]!, units[i + 1]!],
      precision,
      openEnd: false,
      garbage: false,
    });
    if (local.length !== 3 || local.some((s, k) => s.unit !== k)) continue;
    const word = local[1]!;
    if (word.confidence < median - BELOW_MEDIAN) continue;
    byUnit.set(i - 1, { ...local[0]!, unit: i - 1 });
    byUnit.set(i, { ...word, unit: i });
    byUnit.set(i + 1, { ...local[2]!, unit: i + 1 });
  }
  return [...byUnit.values()].sort((a, b) => a.unit - b.unit);
}
