// The spectrogram as Praat shows it, and the rulers around it. Praat's defaults are the workspace's:
// a broadband 5 ms Gaussian window (formants, not harmonics), 50 dB of dynamic range under the loudest
// point, 5 kHz at the top, +6 dB/octave of display pre-emphasis. Praat's Gaussian "window length" is the
// effective one: its physical window is twice as long (10 ms for 5 ms), and exp(-12 (t/T - 1/2)^2)
// is wavesurfer's gauss window with alpha = 1/sqrt(6).
import type { SpectrogramPluginOptions } from 'wavesurfer.js/dist/plugins/spectrogram.esm.js';

export interface SpectrogramSettings {
  /** effective window length, milliseconds: 5 broadband (formants), 30 narrowband (harmonics) */
  windowMs: number;
  /** dynamic range: what lies this many dB under the loudest point is paper */
  rangeDb: number;
  /** the top of the frequency axis, Hz */
  maxHz: number;
}

export const SPECTROGRAM_DEFAULTS: SpectrogramSettings = { windowMs: 5, rangeDb: 50, maxHz: 5000 };
export const WINDOW_CHOICES = [5, 10, 15, 30] as const;
export const RANGE_CHOICES = [30, 40, 50, 60, 70] as const;
/** The audio is decoded at 16 kHz: 8 kHz is the highest frequency there is. */
export const MAX_HZ_CHOICES = [5000, 5500, 6000, 7000, 8000] as const;

const SAMPLE_RATE = 16000;
const STORAGE_KEY = 'tazamun.spectrogram';

export function loadSpectrogramSettings(): SpectrogramSettings {
  try {
    const raw = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<SpectrogramSettings>;
    return {
      windowMs: (WINDOW_CHOICES as readonly number[]).includes(raw.windowMs ?? -1)
        ? raw.windowMs!
        : SPECTROGRAM_DEFAULTS.windowMs,
      rangeDb: (RANGE_CHOICES as readonly number[]).includes(raw.rangeDb ?? -1)
        ? raw.rangeDb!
        : SPECTROGRAM_DEFAULTS.rangeDb,
      maxHz: (MAX_HZ_CHOICES as readonly number[]).includes(raw.maxHz ?? -1)
        ? raw.maxHz!
        : SPECTROGRAM_DEFAULTS.maxHz,
    };
  } catch {
    return SPECTROGRAM_DEFAULTS;
  }
}

export function saveSpectrogramSettings(s: SpectrogramSettings): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(s));
}

type Rgb = [number, number, number];

/** 256 colours from the paper (no energy) to the ink (the loudest point), darkening like Praat's grey. */
export function colourMap(paper: Rgb, ink: Rgb, gamma = 1.6): number[][] {
  return Array.from({ length: 256 }, (_, i) => {
    const x = Math.pow(i / 255, 1 / gamma);
    return [...paper.map((p, k) => (p + (ink[k]! - p) * x) / 255), 1];
  });
}

/** Light theme: white paper, black energy (Praat). Dark theme: the surface colour, light energy. */
export const THEME_MAPS = {
  light: colourMap([255, 255, 255], [0, 0, 0]),
  dark: colourMap([15, 19, 27], [240, 243, 248]),
};

export function spectrogramOptions(
  s: SpectrogramSettings,
  theme: 'dark' | 'light',
  height: number,
): SpectrogramPluginOptions {
  const physical = Math.round((2 * s.windowMs * SAMPLE_RATE) / 1000);
  return {
    height,
    labels: false,
    scale: 'linear',
    frequencyMin: 0,
    frequencyMax: s.maxHz,
    fftSamples: physical,
    // zero-padded to a smooth frequency axis; the resolution is the window's
    fftSize: Math.max(512, 2 ** Math.ceil(Math.log2(physical))),
    windowFunc: 'gauss',
    alpha: 1 / Math.sqrt(6),
    preEmphasis: 6,
    autoGain: true,
    rangeDB: s.rangeDb,
    colorMap: THEME_MAPS[theme],
  };
}

/** Frequencies to label on the spectrogram's axis: every kilohertz (every 500 Hz up to 3 kHz). */
export function frequencyTicks(maxHz: number): number[] {
  const step = maxHz <= 3000 ? 500 : 1000;
  const out: number[] = [];
  for (let f = 0; f <= maxHz + 1e-6; f += step) out.push(f);
  return out;
}

const STEPS = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600];

/**
 * The time ruler's ticks for a recording shown at `pxPerSec`: a labelled tick at least 64 px from the
 * next (so labels never overlap), and unlabelled ticks between them at least 8 px apart.
 */
export function timeTicks(duration: number, pxPerSec: number): { t: number; label: string | null }[] {
  if (!(duration > 0) || !(pxPerSec > 0)) return [];
  const major = STEPS.find((s) => s * pxPerSec >= 64) ?? STEPS.at(-1)!;
  const minor = [...STEPS].reverse().find((s) => s < major && s * pxPerSec >= 8 && (major / s) % 1 < 1e-9);
  const step = minor ?? major;
  const decimals = Math.max(0, -Math.floor(Math.log10(major) + 1e-9));
  const out: { t: number; label: string | null }[] = [];
  const n = Math.floor(duration / step + 1e-9);
  for (let k = 0; k <= n; k++) {
    const t = k * step;
    const isMajor = Math.abs(t / major - Math.round(t / major)) < 1e-6;
    out.push({ t, label: isMajor ? t.toFixed(decimals) : null });
  }
  return out;
}
