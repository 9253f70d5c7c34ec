// Long recordings are aligned window by window so memory stays bounded and time grows linearly with the
// audio. Each window starts at an anchor (the middle of a pause after the last word committed) and is
// searched with an open end: the transcript may stop anywhere inside the window. Only the words that end
// well before the window's end are kept (the window's last seconds may cut a word); the next window starts
// at the pause after them. Anchors come from the alignment itself (a pause between two placed words), so
// there is no accumulated drift: every window is re-anchored on the audio.
import type { AcousticBackend, Precision, Unit, UnitSpan } from '../acoustic/backend.ts';
import { SAMPLE_RATE } from '../audio/decode.ts';

export interface LongAudioOptions {
  precision: Precision;
  garbage: boolean;
  /** files up to this many seconds are aligned in one search */
  singleMax?: number;
  /** window length in seconds */
  window?: number;
  /** seconds at the window end whose words are not committed */
  guard?: number;
}

export function alignLong(
  backend: AcousticBackend,
  samples: Float32Array,
  units: Unit[],
  _frameDb: Float32Array,
  opts: LongAudioOptions,
): UnitSpan[] {
  const singleMax = opts.singleMax ?? 75;
  const total = samples.length / SAMPLE_RATE;
  const base = { precision: opts.precision, garbage: opts.garbage };
  if (total <= singleMax) {
    const spans = backend.alignWindow({ ...base, samples, offset: 0, units, openEnd: false });
    // When the one search finds no complete path (beams, an odd stretch of audio), shorter open-ended
    // windows usually get through: fall back to them.
    if (spans.length >= units.length * 0.5 || total < 8) return spans;
    const again = windowed(backend, samples, units, { ...opts, singleMax: 6, window: 12, guard: 3 });
    return again.length > spans.length ? again : spans;
  }
  return windowed(backend, samples, units, opts);
}

function windowed(
  backend: AcousticBackend,
  samples: Float32Array,
  units: Unit[],
  opts: LongAudioOptions,
): UnitSpan[] {
  const singleMax = opts.singleMax ?? 75;
  const win = opts.window ?? 45;
  const guard = opts.guard ?? 12;
  const total = samples.length / SAMPLE_RATE;
  const base = { precision: opts.precision, garbage: opts.garbage };
  const out: UnitSpan[] = [];
  let t = 0;
  let u = 0;
  while (u < units.length) {
    const remaining = total - t;
    const from = Math.round(t * SAMPLE_RATE);
    if (remaining <= singleMax) {
      const spans = backend.alignWindow({
        ...base,
        samples: samples.subarray(from),
        offset: t,
        units: units.slice(u),
        openEnd: false,
      });
      for (const s of spans) out.push({ ...s, unit: s.unit + u });
      break;
    }
    const perSecond = (units.length - u) / remaining;
    // Enough text for a fast stretch of speech; more makes the open-ended graph (and the search) larger.
    let n = Math.min(units.length - u, Math.ceil(perSecond * win * 1.3) + 10);
    let spans: UnitSpan[] = [];
    const to = Math.min(samples.length, from + Math.round(win * SAMPLE_RATE));
    for (let attempt = 0; attempt < 3 && spans.length === 0; attempt++) {
      spans = backend.alignWindow({
        ...base,
        samples: samples.subarray(from, to),
        offset: t,
        units: units.slice(u, u + n),
        openEnd: true,
      });
      n = Math.min(units.length - u, n * 2);
    }
    if (spans.length === 0) {
      // Nothing fits in this window (music, silence, speech not in the text): step over it.
      t += win - guard;
      continue;
    }
    const limit = t + win - guard;
    // Commit spans ending before the guard zone; cut in the widest gap among the last few of them.
    let last = -1;
    for (let k = 0; k < spans.length; k++) if (spans[k]!.end <= limit) last = k;
    if (last < 0) last = 0;
    let cut = last;
    let widest = -1;
    for (let k = Math.max(0, last - 8); k <= last; k++) {
      const next = spans[k + 1];
      const gap = next ? next.start - spans[k]!.end : 0;
      if (gap > widest) {
        widest = gap;
        cut = k;
      }
    }
    for (let k = 0; k <= cut; k++) out.push({ ...spans[k]!, unit: spans[k]!.unit + u });
    const nextSpan = spans[cut + 1];
    const cutEnd = spans[cut]!.end;
    const newT = nextSpan ? (cutEnd + nextSpan.start) / 2 : cutEnd;
    u += spans[cut]!.unit + 1;
    t = Math.max(newT, t + 1);
  }
  return out;
}
