// Words placed on speech the transcript leaves out. After a stretch of untranscribed speech (one side of an
// interview, a sentence the transcriber skipped), the search may put the next words early, on that speech,
// while the loop between words takes their own audio: "No manufacturer" placed 3.0 and 1.3 s before it is
// said, fitting badly, and the loop over the words themselves. Such a run is searched again over the
// stretch from the placed word before it to the placed word after it, with a loop before its first word
// and none between its words (the run said in one go, up to the word after it), and the new placement is
// kept when the run's words fit their audio clearly better there (goodness of pronunciation, the forced
// path against the free phone loop over the same frames).
import { pooledGop } from '../acoustic/backend.ts';
import type { AcousticBackend, Precision, Unit, UnitSpan } from '../acoustic/backend.ts';
import { SAMPLE_RATE } from '../audio/decode.ts';
import type { Samples } from '../audio/pcm.ts';
import { speechIn } from '../metrics/speech.ts';

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

/**
 * `spans` (in unit order) with runs placed on untranscribed speech moved to where they fit (see the head of
 * this file). `regions`: speech per 10 ms frame of the recording (metrics/speech.ts). Only for a back-end
 * that reads WindowRequest.leadingLoop (the HMM one).
 */
export async function reseatAfterUntranscribed(
  backend: AcousticBackend,
  samples: Samples,
  units: Unit[],
  spans: UnitSpan[],
  regions: Uint8Array,
  precision: Precision,
): Promise<UnitSpan[]> {
  const out = spans.slice();
  for (let i = 1; i + 1 < out.length; i++) {
    // its first word fits badly where it is
    if ((out[i]!.gop ?? 0) < POOR_GOP) continue;
    const a = out[i - 1]!;
    let best: { j: number; spans: UnitSpan[]; gain: number } | null = null;
    for (let j = i + 1; j < out.length && j - i <= RUN_MAX; j++) {
      const run = out.slice(i, j);
      const b = out[j]!;
      if (b.start - a.end > STRETCH_MAX) break;
      // untranscribed speech before the run's last word
      const last = run[run.length - 1]!;
      const covered = run.slice(0, -1).reduce((x, s) => x + speechIn(regions, s.start, s.end), 0);
      if (speechIn(regions, a.end, last.start) - covered < UNCOVERED_MIN) continue;
      if (!run.every(hasGop)) continue;
      const before = pooledGop(run)!;
      // the run's units, and those between them that were not placed
      const local = await backend.alignWindow({
        samples: samples.window(Math.floor(a.end * SAMPLE_RATE), Math.ceil(b.start * SAMPLE_RATE)),
        offset: a.end,
        units: units.slice(a.unit + 1, b.unit),
        precision,
        openEnd: false,
        garbage: true,
        leadingLoop: true,
      });
      // every word of the run placed again (and perhaps one that was not placed)
      const again = new Set(local.map((s) => s.unit + a.unit + 1));
      if (run.some((s) => !again.has(s.unit))) continue;
      if (!local.every(hasGop)) continue;
      const after = pooledGop(local)!;
      const gain = before - after;
      if (gain >= GOP_GAIN && (!best || gain > best.gain))
        best = { j, spans: local.map((s) => ({ ...s, unit: s.unit + a.unit + 1 })), gain };
    }
    if (best) {
      out.splice(i, best.j - i, ...best.spans);
      i += best.spans.length - 1;
    }
  }
  return out;
}
