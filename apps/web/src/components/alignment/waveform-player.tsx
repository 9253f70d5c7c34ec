import { useEffect, useImperativeHandle, useRef, useState } from 'react';
import type { Ref } from 'react';
import type WaveSurfer from 'wavesurfer.js';
import { useTranslation } from 'react-i18next';
import { useUiStore } from '../../stores/ui-store.ts';
import { Spinner } from '../ui/spinner.tsx';
import { PLAYBACK_RATES, createWaveSurfer, waveColours } from '../../lib/wavesurfer.ts';
import { formatNumber } from '../../lib/format.ts';
import { formatClock } from './time.ts';

export interface PlayerHandle {
  seek: (seconds: number, play?: boolean) => void;
  /** plays [start, end] and stops there: one word */
  playSpan: (start: number, end: number) => void;
  togglePlay: () => void;
}

/** The audio with its waveform (wavesurfer.js). Time runs left to right in every interface language. */
export function WaveformPlayer({
  url,
  duration: known,
  onTime,
  ref,
}: {
  url: string;
  /** the recording's length as the result gives it: shown until the audio's own metadata arrive */
  duration?: number;
  onTime: (seconds: number) => void;
  ref?: Ref<PlayerHandle>;
}) {
  const { t } = useTranslation();
  const theme = useUiStore((s) => s.theme);
  const container = useRef<HTMLDivElement>(null);
  const ws = useRef<WaveSurfer | null>(null);
  const onTimeRef = useRef(onTime);
  const [ready, setReady] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(known ?? 0);
  const [rate, setRate] = useState(1);
  const [failed, setFailed] = useState(false);
  const audio = useRef<HTMLAudioElement>(null);
  // Playable as soon as the stream's metadata is in, before the waveform is drawn.
  const [playable, setPlayable] = useState(false);

  useEffect(() => {
    onTimeRef.current = onTime;
  }, [onTime]);

  // The <audio> element streams the URL itself (byte ranges as it plays), so playback and seeking
  // start at once; wavesurfer is given that element and only draws the waveform once it has fetched
  // and decoded the file beside it. Given a URL of its own, wavesurfer would download the whole file
  // before the first sound.
  useEffect(() => {
    const media = audio.current;
    if (!container.current || !media) return;
    const instance = createWaveSurfer('player', { container: container.current, media });
    ws.current = instance;
    const unsubs = [
      instance.on('ready', (d) => {
        setDuration(d);
        setReady(true);
      }),
      instance.on('timeupdate', (s) => {
        setTime(s);
        onTimeRef.current(s);
      }),
      instance.on('play', () => setPlaying(true)),
      instance.on('pause', () => setPlaying(false)),
      instance.on('finish', () => setPlaying(false)),
      instance.on('error', () => setFailed(true)),
    ];
    return () => {
      for (const u of unsubs) u();
      instance.destroy();
      ws.current = null;
      setReady(false);
      setPlayable(false);
    };
  }, [url]);

  // A theme change repaints the waveform; it must not reload the audio.
  useEffect(() => {
    ws.current?.setOptions(waveColours('player'));
  }, [theme]);

  useImperativeHandle(ref, () => ({
    seek: (seconds, play = false) => {
      const w = ws.current;
      if (!w) return;
      w.setTime(seconds);
      if (play) void w.play();
    },
    playSpan: (start, end) => void ws.current?.play(start, end),
    togglePlay: () => void ws.current?.playPause(),
  }));

  return (
    <div className="rounded-xl border border-border bg-surface-2/50 p-4">
      <div dir="ltr" className="relative min-h-[88px]">
        <audio
          ref={audio}
          src={url}
          preload="metadata"
          data-testid="audio-stream"
          onLoadedMetadata={(e) => {
            setPlayable(true);
            if (Number.isFinite(e.currentTarget.duration)) setDuration(e.currentTarget.duration);
          }}
        />
        <div ref={container} data-testid="waveform" />
        {!ready && !failed && (
          <div className="absolute inset-0 flex items-center justify-center text-accent">
            <Spinner label={t('common.loading')} />
          </div>
        )}
        {failed && <p className="text-sm text-danger">{t('viewer.audioFailed')}</p>}
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button
          type="button"
          onClick={() => void ws.current?.playPause()}
          disabled={!ready && !playable}
          className="inline-flex size-10 items-center justify-center rounded-full bg-accent text-accent-fg disabled:opacity-50"
          aria-label={playing ? t('viewer.pause') : t('viewer.play')}
        >
          {playing ? (
            <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden>
              <rect x="3" y="2" width="3.5" height="12" rx="1" fill="currentColor" />
              <rect x="9.5" y="2" width="3.5" height="12" rx="1" fill="currentColor" />
            </svg>
          ) : (
            <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden>
              <path d="M4 2.5v11l9.5-5.5z" fill="currentColor" />
            </svg>
          )}
        </button>
        <span dir="ltr" className="font-mono text-sm tabular-nums text-muted">
          {formatClock(time)} / {formatClock(Math.round(duration))}
        </span>
        <label className="ms-auto flex items-center gap-2 text-sm text-muted">
          {t('viewer.speed')}
          <select
            value={rate}
            onChange={(e) => {
              const r = Number(e.target.value);
              setRate(r);
              ws.current?.setPlaybackRate(r);
            }}
            className="rounded-md border border-border bg-surface px-2 py-1 text-fg"
          >
            {PLAYBACK_RATES.player.map((r) => (
              <option key={r} value={r}>
                {formatNumber(r)}×
              </option>
            ))}
          </select>
        </label>
      </div>
    </div>
  );
}
