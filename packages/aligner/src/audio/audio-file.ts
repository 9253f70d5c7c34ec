// What is known of an audio file before it is decoded (ProbeInfo: ffprobe's answer, or a WAV header's),
// and what can be wrong with one (AudioError, the user's audio, never an engine fault). Shared by the
// decoder (decode.ts) and the in-process WAV reader (wav.ts).

export class AudioError extends Error {
  constructor(
    readonly code: 'not_found' | 'empty' | 'not_audio' | 'decode_failed' | 'silent' | 'too_short',
    message: string,
  ) {
    super(message);
    this.name = 'AudioError';
  }
}

export interface ProbeInfo {
  format: string;
  duration: number;
  sampleRate: number;
  channels: number;
  codec: string;
}
