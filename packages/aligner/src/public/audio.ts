// Public entry `@tazamun/aligner/audio`: probing and reading audio files with the ffmpeg the engine uses.
export { AudioError } from '../audio/audio-file.ts';
export type { ProbeInfo } from '../audio/audio-file.ts';
export { SAMPLE_RATE, ffmpegPath, inputGuard, probeAudio } from '../audio/decode.ts';
export { wavBytes16, wavBytesFloat, wavHeader, wavHoldsNonFinite } from '../audio/wav.ts';
export type { WavSample } from '../audio/wav.ts';
