// The workspace's wavesurfer: waveform, a Praat-like spectrogram under it (its settings can change
// without loading the audio again), zoom, stretch selection by dragging, and two hosts inside the
// scrolling wrapper where React draws the ruler and tiers (they scroll and zoom with the waveform).
import { useCallback, useEffect, useRef, useState } from 'react';
import type WaveSurfer from 'wavesurfer.js';
import RegionsPlugin from 'wavesurfer.js/dist/plugins/regions.esm.js';
import SpectrogramPlugin from 'wavesurfer.js/dist/plugins/spectrogram.esm.js';
import ZoomPlugin from 'wavesurfer.js/dist/plugins/zoom.esm.js';
import { createWaveSurfer, waveColours } from '../../../lib/wavesurfer.ts';
import { spectrogramOptions } from './spectrogram.ts';
import type { SpectrogramSettings } from './spectrogram.ts';

export const WAVE_HEIGHT = 80;
export const SPECTRO_HEIGHT = 160;
export const MAX_ZOOM = 4000;

export interface Stretch {
  start: number;
  end: number;
}

export function useWaveSurfer({
  audioUrl,
  initialDuration,
  settings,
  theme,
  onRegion,
}: {
  audioUrl: string | null;
  initialDuration: number;
  settings: SpectrogramSettings;
  theme: 'dark' | 'light';
  /** a stretch dragged on the waveform (or moved) */
  onRegion: (s: Stretch) => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const ws = useRef<WaveSurfer | null>(null);
  const regions = useRef<RegionsPlugin | null>(null);
  const spectrogram = useRef<SpectrogramPlugin | null>(null);
  const onRegionRef = useRef(onRegion);
  const [hosts, setHosts] = useState<{ tiers: HTMLElement; lines: HTMLElement } | null>(null);
  const [duration, setDuration] = useState(initialDuration);
  const [ready, setReady] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [zoom, setZoom] = useState(0);
  const [pxPerSec, setPxPerSec] = useState(0);
  const drawn = useRef<{ settings: SpectrogramSettings; theme: string } | null>(null);

  useEffect(() => {
    onRegionRef.current = onRegion;
  }, [onRegion]);

  useEffect(() => {
    if (!container.current || !audioUrl) return;
    const regionsPlugin = RegionsPlugin.create();
    const spectro = SpectrogramPlugin.create(spectrogramOptions(settings, theme, SPECTRO_HEIGHT));
    const instance = createWaveSurfer('workspace', {
      container: container.current,
      url: audioUrl,
      height: WAVE_HEIGHT,
      plugins: [
        spectro,
        ZoomPlugin.create({ scale: 0.3, maxZoom: MAX_ZOOM, exponentialZooming: true }),
        regionsPlugin,
      ],
    });
    ws.current = instance;
    regions.current = regionsPlugin;
    spectrogram.current = spectro;
    drawn.current = { settings, theme };
    regionsPlugin.enableDragSelection({ color: 'color-mix(in srgb, var(--accent) 18%, transparent)' }, 3);
    const region = (r: { id: string; start: number; end: number }) => {
      for (const other of regionsPlugin.getRegions()) if (other.id !== r.id) other.remove();
      onRegionRef.current({ start: r.start, end: r.end });
    };
    const measure = () => {
      const d = instance.getDuration();
      if (d > 0) setPxPerSec(instance.getWrapper().clientWidth / d);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(container.current);
    const unsubs = [
      regionsPlugin.on('region-created', region),
      regionsPlugin.on('region-updated', region),
      instance.on('ready', (d) => {
        setDuration(d);
        setReady(true);
        // The ruler and tiers go last in the wrapper, under the spectrogram; the lines cover everything.
        const wrapper = instance.getWrapper();
        const tiers = document.createElement('div');
        tiers.dataset.testid = 'tier-host';
        const lines = document.createElement('div');
        Object.assign(lines.style, { position: 'absolute', inset: '0', pointerEvents: 'none', zIndex: '3' });
        wrapper.append(tiers, lines);
        setHosts({ tiers, lines });
        measure();
      }),
      instance.on('redraw', measure),
      instance.on('timeupdate', (s) => setTime(s)),
      instance.on('interaction', (s) => setTime(s)),
      instance.on('play', () => setPlaying(true)),
      instance.on('pause', () => setPlaying(false)),
      instance.on('finish', () => setPlaying(false)),
      instance.on('zoom', (px) => {
        setZoom(px);
        measure();
      }),
    ];
    return () => {
      for (const u of unsubs) u();
      observer.disconnect();
      instance.destroy();
      ws.current = null;
      regions.current = null;
      spectrogram.current = null;
      setHosts(null);
      setReady(false);
    };
    // settings and theme are applied by the effect below without loading the audio again
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [audioUrl]);

  // New spectrogram settings or another theme: a new spectrogram from the decoded audio, put back
  // under the waveform (above the ruler and tiers).
  useEffect(() => {
    const instance = ws.current;
    ws.current?.setOptions(waveColours('workspace'));
    if (!instance || !ready || !hosts) return;
    const last = drawn.current;
    if (last && last.theme === theme && JSON.stringify(last.settings) === JSON.stringify(settings)) return;
    spectrogram.current?.destroy();
    spectrogram.current = instance.registerPlugin(
      SpectrogramPlugin.create(spectrogramOptions(settings, theme, SPECTRO_HEIGHT)),
    );
    drawn.current = { settings, theme };
    instance.getWrapper().append(hosts.tiers, hosts.lines);
  }, [settings, theme, ready, hosts]);

  const setZoomLevel = useCallback((px: number) => {
    const next = Math.max(0, Math.min(MAX_ZOOM, px));
    setZoom(next);
    ws.current?.zoom(next);
  }, []);

  return {
    container,
    ws,
    regions,
    hosts,
    duration,
    ready,
    playing,
    time,
    zoom,
    pxPerSec,
    setZoomLevel,
  };
}
