// What every back-end does first: get 16 kHz mono samples, describe their source, measure them and refuse
// audio nothing can be aligned in (silent, too short) before any model is loaded or run.
import { decodeAudio, SAMPLE_RATE } from './decode.ts';
import { assertAlignable, measureAudio } from './measure.ts';
import type { AudioStats } from './measure.ts';

export interface SourceAudioInfo {
  format: string;
  channels: number;
  sampleRate: number;
}

export interface AlignableAudio {
  samples: Float32Array;
  info: SourceAudioInfo;
  stats: AudioStats;
}

/**
 * `audio` is a file path (decoded with ffmpeg) or samples already at 16 kHz mono; for samples, `given`
 * describes where they came from (a caller that decoded the file itself), else they are reported as raw PCM.
 */
export async function loadAlignableAudio(
  audio: string | Float32Array,
  given?: SourceAudioInfo,
  allowSilent = false,
): Promise<AlignableAudio> {
  let samples: Float32Array;
  let info: SourceAudioInfo = given ?? { format: 'pcm_f32le', channels: 1, sampleRate: SAMPLE_RATE };
  if (typeof audio === 'string') {
    const dec = await decodeAudio(audio);
    samples = dec.samples;
    info = { format: dec.probe.format, channels: dec.probe.channels, sampleRate: dec.probe.sampleRate };
  } else {
    samples = audio;
  }
  const stats = measureAudio(samples);
  assertAlignable(stats, allowSilent);
  return { samples, info, stats };
}
