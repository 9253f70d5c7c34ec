// The waveform and spectrogram (drawn by use-wavesurfer.ts into `container`), the frequency axis beside
// them, the spectrogram's settings and the zoom in pixels per second.
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { AxisColumn } from './axis-column.tsx';
import { SpectrogramControls } from './spectrogram-controls.tsx';
import type { SpectrogramSettings } from './spectrogram.ts';
import { SPECTRO_HEIGHT, WAVE_HEIGHT } from './use-wavesurfer.ts';

export function WaveformPanel({
  container,
  loading,
  settings,
  onSettings,
  zoom,
}: {
  container: RefObject<HTMLDivElement | null>;
  /** no audio URL yet */
  loading: boolean;
  settings: SpectrogramSettings;
  onSettings: (s: SpectrogramSettings) => void;
  /** pixels per second, 0 while the whole recording fits */
  zoom: number;
}) {
  const { t } = useTranslation();
  return (
    <div className="rounded-xl border border-border bg-surface-2/50 p-2" aria-label={t('editor.waveform')}>
      <div dir="ltr" className="flex min-w-0">
        <AxisColumn maxHz={settings.maxHz} />
        <div
          ref={container}
          data-testid="editor-waveform"
          className="min-w-0 flex-1"
          style={{ minHeight: WAVE_HEIGHT + SPECTRO_HEIGHT }}
        />
      </div>
      {loading && <p className="text-sm text-muted">{t('common.loading')}</p>}
      <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1">
        <SpectrogramControls value={settings} onChange={onSettings} />
        <span dir="ltr" className="ms-auto text-xs text-muted tabular-nums">
          {zoom ? `${Math.round(zoom)} px/s` : ''}
        </span>
      </div>
      <p className="mt-1 text-xs text-muted" id="tiers-help">
        {t('editor.tiersHint')}
      </p>
    </div>
  );
}
