// The one way this app makes a wavesurfer.js instance, and the one table of how each use looks and plays.
// The results page's player and the correction workspace differ on purpose: the player draws bars in the
// accent colour for listening; the workspace draws a plain waveform in the muted colour with a red
// cursor above its spectrogram, decodes at the engine's rate (so the spectrogram reaches 8 kHz), and
// offers a quarter speed for listening to phones.
import WaveSurfer from 'wavesurfer.js';
import type { WaveSurferOptions } from 'wavesurfer.js';

export type WaveLook = 'player' | 'workspace';

const LOOKS: Record<
  WaveLook,
  { wave: string; progress: string; cursor: string; options: Partial<WaveSurferOptions> }
> = {
  player: {
    wave: '--border',
    progress: '--accent',
    cursor: '--fg',
    options: { height: 88, barWidth: 2, barGap: 1, barRadius: 2, dragToSeek: true },
  },
  workspace: {
    wave: '--muted',
    progress: '--muted',
    cursor: '--danger',
    // wavesurfer decodes at 8000 Hz by default; the engine's rate keeps the spectrogram's upper half
    options: { sampleRate: 16000, cursorWidth: 2, autoScroll: true, autoCenter: false },
  },
};

/** The speeds each use offers, slowest first. */
export const PLAYBACK_RATES: Record<WaveLook, readonly number[]> = {
  player: [0.5, 0.75, 1, 1.25, 1.5],
  workspace: [0.25, 0.5, 0.75, 1, 1.25, 1.5],
};

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

/** The colours of `look` in the current theme: set again (setOptions) when the theme changes. */
export function waveColours(
  look: WaveLook,
): Pick<WaveSurferOptions, 'waveColor' | 'progressColor' | 'cursorColor'> {
  const l = LOOKS[look];
  return { waveColor: cssVar(l.wave), progressColor: cssVar(l.progress), cursorColor: cssVar(l.cursor) };
}

/** A wavesurfer in `look`, normalised; `options` gives the container, the media or URL, and the rest. */
export function createWaveSurfer(look: WaveLook, options: WaveSurferOptions): WaveSurfer {
  return WaveSurfer.create({ ...LOOKS[look].options, ...waveColours(look), normalize: true, ...options });
}
