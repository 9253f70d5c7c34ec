// Level measures reported with every result, and the checks that refuse audio nothing can be aligned in.
import { AudioError } from './audio-file.ts';
import { SAMPLE_RATE } from './decode.ts';
import type { Pcm } from './pcm.ts';

export interface AudioStats {
  duration: number;
  peakDbfs: number | null;
  clippingRatio: number;
  silenceRatio: number;
  /** RMS level of each 10 ms frame in dBFS, used by the VAD and boundary refinement. */
  frameDb: Float32Array;
  /** Spectral tilt of each 10 ms frame: pre-emphasised (x[n] - 0.95 x[n-1]) minus plain level, dB. */
  frameTiltDb: Float32Array;
}

export const FRAME = SAMPLE_RATE / 100;

export function frameLevels(samples: Pcm): Float32Array {
  return frameMeasures(samples).levels;
}

/**
 * How much of each frame's energy lies high in the spectrum: the level after pre-emphasis minus the
 * plain level. Low for vowels, hums and tones, high for hiss and fricatives; it moves from phone to phone
 * in speech and stays put in a steady sound (metrics/speech.ts).
 */
export function frameTilts(samples: Pcm): Float32Array {
  return frameMeasures(samples).tilts;
}

/** Both per-frame measures in one pass over the samples. */
export function frameMeasures(samples: Pcm): { levels: Float32Array; tilts: Float32Array } {
  const scale = samples instanceof Int16Array ? 1 / 32768 : 1;
  const nf = Math.floor(samples.length / FRAME);
  const levels = new Float32Array(nf);
  const tilts = new Float32Array(nf);
  for (let f = 0; f < nf; f++) {
    let s = 0;
    let high = 0;
    let prev = f > 0 ? samples[f * FRAME - 1]! * scale : 0;
    for (let i = f * FRAME; i < (f + 1) * FRAME; i++) {
      const v = samples[i]!;
      s += v * v;
      const x = v * scale;
      const d = x - 0.95 * prev;
      high += d * d;
      prev = x;
    }
    // in samples' own units the sum is exact for 16-bit storage, and scaling by a power of two keeps it so
    const plain = s * scale * scale;
    levels[f] = 10 * Math.log10(plain / FRAME + 1e-12);
    tilts[f] = 10 * Math.log10((high + 1e-12) / (plain + 1e-12));
  }
  return { levels, tilts };
}

/**
 * The peak magnitude and the clipped samples (|x| >= 0.999). A function of its own: a loop compiled while
 * it runs (on-stack replacement) and followed by calls it has not yet made was thrown away at their first
 * call, on every file (42 times on 80 files), and the loop ran in the interpreter.
 */
function peakAndClipped(samples: Pcm): { peak: number; clipped: number } {
  const scale = samples instanceof Int16Array ? 1 / 32768 : 1;
  let peak = 0;
  let clipped = 0;
  for (let i = 0; i < samples.length; i++) {
    const a = Math.abs(samples[i]! * scale);
    if (a > peak) peak = a;
    if (a >= 0.999) clipped++;
  }
  return { peak, clipped };
}

export function measureAudio(samples: Pcm): AudioStats {
  const { peak, clipped } = peakAndClipped(samples);
  const { levels: frameDb, tilts: frameTiltDb } = frameMeasures(samples);
  // Silence relative to the loud part of the file, so a quiet but clean recording is not "all silence".
  const sorted = Float32Array.from(frameDb).sort();
  const loud = sorted.length ? sorted[Math.floor(sorted.length * 0.95)]! : -120;
  const thr = Math.max(loud - 35, -60);
  let silent = 0;
  for (const d of frameDb) if (d < thr) silent++;
  return {
    duration: samples.length / SAMPLE_RATE,
    peakDbfs: peak > 0 ? Math.round(20 * Math.log10(peak) * 100) / 100 : null,
    clippingRatio: samples.length ? clipped / samples.length : 0,
    silenceRatio: frameDb.length ? silent / frameDb.length : 1,
    frameDb,
    frameTiltDb,
  };
}

/** Peak below -70 dBFS (or digital zero): nothing in it can be speech. */
export function isSilent(stats: AudioStats): boolean {
  return stats.peakDbfs === null || stats.peakDbfs < -70;
}

/**
 * Throws a clear error for audio in which no speech can be found. With `allowSilent` a silent file is let
 * through: the hmm engine answers it with a completed result whose verdict is no_speech.
 */
export function assertAlignable(stats: AudioStats, allowSilent = false): void {
  if (stats.duration < 0.1)
    throw new AudioError('too_short', `the audio is too short (${stats.duration.toFixed(3)} s)`);
  if (!allowSilent && isSilent(stats)) {
    throw new AudioError('silent', 'the audio is silent (peak level below -70 dBFS)');
  }
}
