// Small real WAV files for tests and the load bench, made by the aligner's WAV writer: the upload route
// sniffs their header and ffprobe reads them.
import { wavBytes16, wavBytesFloat } from '@tazamun/aligner/audio';

/** A 16-bit mono PCM WAV lasting `seconds`, whose i-th sample is `sample(i)` (rounded). */
export function pcmWav(seconds: number, sample: (i: number) => number, rate = 16_000): Buffer {
  const samples = new Int16Array(Math.round(rate * seconds));
  for (let i = 0; i < samples.length; i++) samples[i] = Math.round(sample(i));
  return wavBytes16(samples, rate);
}

/** A mono IEEE-float WAV (32 or 64-bit) lasting `seconds`, whose i-th sample is `sample(i)` (NaN allowed). */
export function floatWav(
  seconds: number,
  sample: (i: number) => number,
  rate = 16_000,
  bits: 32 | 64 = 32,
): Buffer {
  const n = Math.round(rate * seconds);
  const samples = bits === 32 ? new Float32Array(n) : new Float64Array(n);
  for (let i = 0; i < n; i++) samples[i] = sample(i);
  return wavBytesFloat(samples, rate);
}
