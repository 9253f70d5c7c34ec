// What every back-end does first: get 16 kHz mono samples, describe their source, measure them and refuse
// audio nothing can be aligned in (silent, too short) before any model is loaded or run.
import { decodeAudio, decodeAudio16, SAMPLE_RATE } from './decode.ts';
import type { ProbeInfo } from './audio-file.ts';
import { PcmFile, toFloat32 } from './pcm.ts';
import type { Pcm } from './pcm.ts';
import { assertAlignable, measureAudio } from './measure.ts';
import type { AudioStats } from './measure.ts';

export interface SourceAudioInfo {
  format: string;
  channels: number;
  sampleRate: number;
}

export interface AlignableAudio {
  /** in memory, or in a file for a long recording kept as 16-bit integers (see `spillSeconds`) */
  samples: Pcm | PcmFile;
  info: SourceAudioInfo;
  stats: AudioStats;
}

/**
 * `audio` is a file path (decoded with ffmpeg) or samples already at 16 kHz mono; for samples, `given`
 * describes where they came from (a caller that decoded the file itself), else they are reported as raw PCM.
 * `store` is how the back-end wants them kept: 16-bit integers (half the memory; a caller's floats are
 * kept as they are) or floats (a caller's integers are converted). `probe`: the file's probe when the
 * caller made one already (it is not probed twice). A file decoded to 16-bit samples longer than
 * `spillSeconds` has them kept in a file once measured (PcmFile).
 */
export async function loadAlignableAudio(
  audio: string | Pcm,
  given?: SourceAudioInfo,
  allowSilent = false,
  store: 'int16' | 'float32' = 'float32',
  probe?: ProbeInfo,
  spillSeconds = Infinity,
): Promise<AlignableAudio> {
  let samples: Pcm;
  let info: SourceAudioInfo = given ?? {
    format: audio instanceof Int16Array ? 'pcm_s16le' : 'pcm_f32le',
    channels: 1,
    sampleRate: SAMPLE_RATE,
  };
  if (typeof audio === 'string') {
    const dec = store === 'int16' ? await decodeAudio16(audio, probe) : await decodeAudio(audio, probe);
    samples = dec.samples;
    info = { format: dec.probe.format, channels: dec.probe.channels, sampleRate: dec.probe.sampleRate };
  } else {
    samples = store === 'float32' ? toFloat32(audio) : audio;
  }
  const stats = measureAudio(samples);
  assertAlignable(stats, allowSilent);
  // a caller's own samples stay where they are: it holds them anyway
  return { samples: typeof audio === 'string' ? spill(samples, spillSeconds) : samples, info, stats };
}

/**
 * 16-bit samples longer than `seconds` moved to a file (PcmFile) once measured, so the job does not hold
 * them in memory while it searches; where no file can be written they stay in memory.
 */
function spill(samples: Pcm, seconds: number): Pcm | PcmFile {
  if (!(samples instanceof Int16Array) || samples.length <= seconds * SAMPLE_RATE) return samples;
  try {
    return PcmFile.write(samples);
  } catch {
    return samples;
  }
}
