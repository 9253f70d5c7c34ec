// Boundary refinement after the search. The HMM places word edges that touch a pause poorly: its silence
// model and the word's edge states share the low-energy frames, so starts after a pause come out early and
// ends before a pause late (measured on TIMIT: -55 ms / +45 ms mean bias at pause edges, against -3 ms
// between joined words). Where a word edge touches a pause, the edge is moved to where the short-time
// energy (5 ms hop) crosses a level set between the pause's noise floor and the word's own level.
import type { UnitSpan } from '../acoustic/backend.ts';
import { SAMPLE_RATE } from '../audio/decode.ts';
import { Samples } from '../audio/pcm.ts';
import type { Pcm } from '../audio/pcm.ts';

const HOP = SAMPLE_RATE / 200; // 5 ms
const WIN = SAMPLE_RATE / 100; // 10 ms window

export interface RefineOptions {
  /** crossing level as a fraction of the floor-to-word-level range, in dB */
  fraction: number;
  /** a gap shorter than this is not a pause */
  minPause: number;
  /** how far an edge may move into the word, seconds */
  maxInward: number;
  /** how far an edge may move into the pause, seconds */
  maxOutward: number;
}

export const DEFAULT_REFINE: RefineOptions = {
  fraction: 0.3,
  minPause: 0.03,
  maxInward: 0.15,
  maxOutward: 0.04,
};

/**
 * Fricatives of the HMM models' phone sets (English ARPAbet, French). A recording's first word beginning
 * with one of them may begin with frication far weaker than its vowels: the search gives those frames to
 * the leading silence and the energy crossing sits at the vowel (VoxAngeles: 19 such isolated words start
 * 133 ms late on average, 3 of them within 50 ms). That start is moved back over the frication. Only the
 * first word: before a later word the "pause" may be the previous word's tail placed too early, and the
 * walk would run over it (measured: ar-synthetic words moved 230 ms early).
 */
const FRICATIVES = new Set([
  'F',
  'V',
  'TH',
  'DH',
  'S',
  'Z',
  'SH',
  'ZH',
  'HH',
  'ff',
  'vv',
  'ss',
  'zz',
  'ch',
  'jj',
]);
/** frication: pre-emphasised energy this far above the file's quiet level (its 10th percentile) */
const FRICATION_DB = 3;
const MAX_FRICATION = 0.3;
/**
 * The quiet level is read over this many seconds around the first word: the whole of a shorter
 * recording, and of a longer one the stretch the word lies in (a 3-hour file's whole track, for one word,
 * took 1.6 s of the job's last steps, on one thread).
 */
const FRICATION_REACH = 600;

/** 10 ms energies in dB; with `dither`, digital zeros read as the searches read them (audio/pcm.ts). */
export function energyTrack(samples: Pcm | Samples, dither = false): Float32Array {
  return track(samples, dither, 0);
}

/**
 * As energyTrack after pre-emphasis (x[n] - 0.95 x[n-1]), which weighs the high frequencies where
 * frication lies. Used only to extend fricative onsets: on every edge it follows the hiss of old
 * recordings (measured worse on VoxAngeles, 55 vs 40 ms mean). Frames [from, to) of the whole track.
 */
export function fricationTrack(
  samples: Pcm | Samples,
  dither = false,
  from = 0,
  to = Infinity,
): Float32Array {
  return track(samples, dither, 0.95, from, to);
}

/** Frames read at a time (a minute of audio), so a recording kept in a file is never read whole. */
const TRACK_CHUNK = 12000;

/** `dither` applies to bare samples; Samples carry their own. Frames [from, to), cut to the recording. */
function track(
  given: Pcm | Samples,
  dither: boolean,
  emphasis: number,
  from = 0,
  to = Infinity,
): Float32Array {
  const samples = given instanceof Samples ? given : new Samples(given, dither);
  const n = Math.min(to, Math.max(0, Math.floor((samples.length - WIN) / HOP) + 1));
  const first = Math.min(from, n);
  const out = new Float32Array(n - first);
  for (let f0 = first; f0 < n; f0 += TRACK_CHUNK) {
    const f1 = Math.min(n, f0 + TRACK_CHUNK);
    // the chunk's frames and the sample before its first (pre-emphasis)
    const from = f0 * HOP - 1;
    const x = samples.window(from, (f1 - 1) * HOP + WIN);
    const base = from < 0 ? 0 : 1;
    for (let f = f0; f < f1; f++) {
      let s = 0;
      const o = (f - f0) * HOP + base;
      let prev = f > 0 ? x[o - 1]! : 0;
      for (let i = 0; i < WIN; i++) {
        const v = x[o + i]!;
        const d = v - emphasis * prev;
        prev = v;
        s += d * d;
      }
      out[f - first] = 10 * Math.log10(s / WIN + 1e-10);
    }
  }
  return out;
}

const frameOf = (t: number): number => Math.round((t * SAMPLE_RATE - WIN / 2) / HOP);
const timeOf = (f: number): number => (f * HOP + WIN / 2) / SAMPLE_RATE;

/**
 * A typed copy, sorted without a comparator (numeric order): a whole recording's track, 2.2 million frames
 * for 3 hours, stays 4 bytes a frame. A JavaScript array of it took about 100 MB of heap per call and set
 * the 3-hour file's peak.
 */
function percentile(xs: Float32Array, lo: number, hi: number, p: number): number | null {
  const a = xs.slice(Math.max(0, lo), Math.min(xs.length, hi)).sort();
  if (a.length === 0) return null;
  return a[Math.min(a.length - 1, Math.floor(p * a.length))]!;
}

/** Returns new spans with pause-adjacent edges moved to the energy crossing. Spans must be in time order. */
export function refineEdges(
  spans: UnitSpan[],
  energy: Float32Array,
  duration: number,
  opts: RefineOptions = DEFAULT_REFINE,
  /**
   * frames [from, to) of the frication track (fricationTrack), made only when a first word begins with a
   * fricative
   */
  frication: ((from: number, to: number) => Float32Array) | null = null,
): UnitSpan[] {
  const out = spans.map((s) => ({ ...s, phones: s.phones.map((p) => ({ ...p })) }));
  // The file's quiet level stands in for the floor where the pause is too short to measure (file edges).
  const globalFloor = percentile(energy, 0, energy.length, 0.05) ?? -100;
  const floorOf = (a: number, b: number): number =>
    b - a >= 4 ? (percentile(energy, a, b, 0.2) ?? globalFloor) : globalFloor;
  for (let k = 0; k < out.length; k++) {
    const s = out[k]!;
    const prevEnd = k > 0 ? out[k - 1]!.end : 0;
    const nextStart = k + 1 < out.length ? out[k + 1]!.start : duration;
    const wLo = frameOf(s.start);
    const wHi = frameOf(s.end);
    const level = percentile(energy, wLo, wHi, 0.9);
    if (level === null) continue;
    if (k === 0 || s.start - prevEnd >= opts.minPause) {
      const floor = floorOf(frameOf(prevEnd), wLo);
      if (level - floor > 10) {
        const thr = floor + opts.fraction * (level - floor);
        const from = Math.max(0, frameOf(Math.max(prevEnd, s.start - opts.maxOutward)));
        const to = frameOf(Math.min(s.end - 0.02, s.start + opts.maxInward));
        for (let f = from; f <= to; f++) {
          if (energy[f]! >= thr && (energy[f + 1] ?? -Infinity) >= thr) {
            moveStart(s, timeOf(f) - HOP / 2 / SAMPLE_RATE);
            break;
          }
        }
      }
      if (k === 0 && frication && FRICATIVES.has(s.phones[0]?.phone ?? '')) {
        // back over frames of frication, above the quiet level of the stretch around the word
        const reach = FRICATION_REACH * 200;
        const lo = Math.max(0, Math.min(frameOf(s.start) - reach / 2, energy.length - reach));
        const track = frication(lo, lo + reach);
        const fricFloor = percentile(track, 0, track.length, 0.1) ?? -100;
        const stop = Math.max(0, frameOf(s.start - MAX_FRICATION));
        let f = frameOf(s.start);
        while (f - 1 >= stop && track[f - 1 - lo]! > fricFloor + FRICATION_DB) f--;
        // no quiet frame within reach (but the file's start): a noise, not an onset
        if (f < frameOf(s.start) && (f > stop || stop === 0))
          moveStart(s, Math.max(0, timeOf(f) - HOP / 2 / SAMPLE_RATE));
      }
    }
    if (k === out.length - 1 || nextStart - s.end >= opts.minPause) {
      const floor = floorOf(wHi, frameOf(nextStart));
      if (level - floor > 10) {
        const thr = floor + opts.fraction * (level - floor);
        const from = Math.min(energy.length - 1, frameOf(Math.min(nextStart, s.end + opts.maxOutward)));
        const to = frameOf(Math.max(s.start + 0.02, s.end - opts.maxInward));
        for (let f = from; f >= to; f--) {
          if (energy[f]! >= thr && (energy[f - 1] ?? -Infinity) >= thr) {
            moveEnd(s, timeOf(f) + HOP / 2 / SAMPLE_RATE);
            break;
          }
        }
      }
    }
  }
  return out;
}

const r4 = (x: number): number => Math.round(x * 10000) / 10000;

function moveStart(s: UnitSpan, t: number): void {
  t = r4(Math.min(t, s.end - 0.01));
  s.start = t;
  // Phones wholly before the new start shrink to it; the first phone starts at the word start.
  for (const p of s.phones) {
    if (p.start < t) p.start = t;
    if (p.end < p.start + 0.005) p.end = r4(Math.min(s.end, p.start + 0.005));
  }
  if (s.phones[0] && s.phones[0].start > t) s.phones[0].start = t;
}

function moveEnd(s: UnitSpan, t: number): void {
  t = r4(Math.max(t, s.start + 0.01));
  s.end = t;
  for (const p of s.phones) {
    if (p.end > t) p.end = t;
    if (p.start > p.end - 0.005) p.start = r4(Math.max(s.start, p.end - 0.005));
  }
  const last = s.phones[s.phones.length - 1];
  if (last && last.end < t) last.end = t;
}
