// Words placed on speech the transcript leaves out. After a stretch of untranscribed speech (one side of an
// interview, a sentence the transcriber skipped), the search may put the next words early, on that speech,
// while the loop between words takes their own audio: "No manufacturer" placed 3.0 and 1.3 s before it is
// said, fitting badly, and the loop over the words themselves. Such a run is searched again over the
// stretch from the placed word before it to the placed word after it, with a loop before its first word
// and none between its words (the run said in one go, up to the word after it), and the new placement is
// kept when the run's words fit their audio clearly better there (goodness of pronunciation, the forced
// path against the free phone loop over the same frames).
import { pooledGop } from '../acoustic/backend.ts';
import type { UnitSpan } from '../acoustic/backend.ts';
import { speechIn } from '../metrics/speech.ts';
import type { Stretch, StretchSearches } from './long-audio.ts';

/**
 * A run is searched again when this much speech (seconds) lies between the word before it and its last
 * word, not covered by its other words: untranscribed speech the run may belong after. A pause is not
 * speech; the dev sets' correct transcripts have no such run (docs/benchmarks.md).
 */
const UNCOVERED_MIN = 1;
/** ... and its first word fits its audio at least this badly (GOP, nats per frame; words said mostly -3 to 3). */
const POOR_GOP = 1.5;
/** Runs of up to this many placed words are searched again. */
const RUN_MAX = 4;
/** The stretch searched is at most this long (seconds). */
const STRETCH_MAX = 60;
/** The new placement is kept when the run's mean GOP (per frame) falls by at least this much. */
const GOP_GAIN = 1;

const hasGop = (s: UnitSpan): boolean => s.gop !== undefined && (s.frames ?? 0) > 0;

/** A run out[i..j) worth searching again, and the stretch it is searched over. */
interface Candidate {
  j: number;
  run: UnitSpan[];
  stretch: Stretch;
}

/**
 * The runs starting at out[i] (not the first or last span) that are searched again: its first word fits
 * badly, and untranscribed speech lies before the run's last word (see the head of this file).
 */
function candidates(out: readonly UnitSpan[], i: number, regions: Uint8Array): Candidate[] {
  const found: Candidate[] = [];
  if ((out[i]!.gop ?? 0) < POOR_GOP) return found;
  const a = out[i - 1]!;
  for (let j = i + 1; j < out.length && j - i <= RUN_MAX; j++) {
    const run = out.slice(i, j);
    const b = out[j]!;
    if (b.start - a.end > STRETCH_MAX) break;
    // untranscribed speech before the run's last word
    const last = run[run.length - 1]!;
    const covered = run.slice(0, -1).reduce((x, s) => x + speechIn(regions, s.start, s.end), 0);
    if (speechIn(regions, a.end, last.start) - covered < UNCOVERED_MIN) continue;
    if (!run.every(hasGop)) continue;
    // the run's units and those between them that were not placed, from the word before to the word after
    found.push({
      j,
      run,
      stretch: { u0: a.unit + 1, u1: b.unit, from: a.end, to: b.start, leadingLoop: true },
    });
  }
  return found;
}

/**
 * `spans` (in unit order, between 1 and the last but one) with runs placed on untranscribed speech moved to
 * where they fit (see the head of this file). `regions`: speech per 10 ms frame of the recording
 * (metrics/speech.ts). `searches`: the recording's stretch searches (align/long-audio.ts) on a back-end
 * that reads WindowRequest.leadingLoop (the HMM one); with piece threads, the searches the spans as they
 * are ask for are shared out ahead, and each is still judged in turn here.
 */
export async function reseatAfterUntranscribed(
  searches: Pick<StretchSearches, 'get' | 'prefetch' | 'close'>,
  spans: UnitSpan[],
  regions: Uint8Array,
): Promise<UnitSpan[]> {
  const out = spans.slice();
  // a search's outcome depends only on its stretch: those the spans ask for now go to the threads at once
  // (a run moved below changes the ones after it only where it was)
  const ahead: Stretch[] = [];
  for (let i = 1; i + 1 < out.length; i++) for (const c of candidates(out, i, regions)) ahead.push(c.stretch);
  searches.prefetch(ahead);
  try {
    for (let i = 1; i + 1 < out.length; i++) {
      let best: { j: number; spans: UnitSpan[]; gain: number } | null = null;
      for (const { j, run, stretch } of candidates(out, i, regions)) {
        const local = (await searches.get(stretch)).map((s) => ({ ...s, unit: s.unit + stretch.u0 }));
        // every word of the run placed again (and perhaps one that was not placed)
        const again = new Set(local.map((s) => s.unit));
        if (run.some((s) => !again.has(s.unit))) continue;
        if (!local.every(hasGop)) continue;
        const gain = pooledGop(run)! - pooledGop(local)!;
        if (gain >= GOP_GAIN && (!best || gain > best.gain)) best = { j, spans: local, gain };
      }
      if (best) {
        out.splice(i, best.j - i, ...best.spans);
        i += best.spans.length - 1;
      }
    }
  } finally {
    // the searches asked ahead for runs that a moved run replaced are not run
    searches.close();
  }
  return out;
}
