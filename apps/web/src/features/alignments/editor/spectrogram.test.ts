import { describe, expect, it } from 'vitest';
import {
  SPECTROGRAM_DEFAULTS,
  THEME_MAPS,
  frequencyTicks,
  spectrogramOptions,
  timeTicks,
} from './spectrogram.ts';

describe('the spectrogram, as Praat shows it', () => {
  it('defaults to a 5 ms broadband Gaussian window, 50 dB under the loudest point, 5 kHz at the top', () => {
    const o = spectrogramOptions(SPECTROGRAM_DEFAULTS, 'light', 160);
    // Praat's 5 ms is the effective length: 10 ms physical, 160 samples at 16 kHz, zero-padded to 512
    expect([o.fftSamples, o.fftSize, o.windowFunc, o.rangeDB, o.frequencyMax, o.autoGain]).toEqual([
      160,
      512,
      'gauss',
      50,
      5000,
      true,
    ]);
    expect(o.alpha).toBeCloseTo(0.408, 3);
    // a narrowband 30 ms window shows harmonics: 960 samples, 1024-point FFT
    const narrow = spectrogramOptions({ ...SPECTROGRAM_DEFAULTS, windowMs: 30, maxHz: 8000 }, 'dark', 160);
    expect([narrow.fftSamples, narrow.fftSize, narrow.frequencyMax]).toEqual([960, 1024, 8000]);
  });

  it('paper is the theme’s background: no energy is white on light, dark on dark', () => {
    expect(THEME_MAPS.light[0]!.slice(0, 3)).toEqual([1, 1, 1]);
    expect(THEME_MAPS.light[255]!.slice(0, 3)).toEqual([0, 0, 0]);
    const floor = THEME_MAPS.dark[0]!;
    expect(Math.max(...floor.slice(0, 3))).toBeLessThan(0.12);
    expect(Math.min(...THEME_MAPS.dark[255]!.slice(0, 3))).toBeGreaterThan(0.9);
  });

  it('labels the axes: every kilohertz, and a time ruler whose labels never crowd', () => {
    expect(frequencyTicks(5000)).toEqual([0, 1000, 2000, 3000, 4000, 5000]);
    expect(frequencyTicks(5500)).toEqual([0, 1000, 2000, 3000, 4000, 5000]);
    // a 4 s clip over 1000 px: more than "0"
    const labels = timeTicks(4, 250)
      .filter((x) => x.label)
      .map((x) => x.label);
    expect(labels).toEqual(['0.0', '0.5', '1.0', '1.5', '2.0', '2.5', '3.0', '3.5', '4.0']);
    // zoomed to 2000 px a second: 50 ms between labels, unlabelled ticks between them
    const zoomed = timeTicks(0.1, 2000);
    expect(zoomed.filter((x) => x.label).map((x) => x.label)).toEqual(['0.00', '0.05', '0.10']);
    expect(zoomed.length).toBeGreaterThan(3);
  });
});
