// Praat's spectrogram settings: window length (5 ms broadband shows formants, 30 ms narrowband the
// harmonics), dynamic range and the top of the frequency axis. Kept in this browser.
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';
import { MAX_HZ_CHOICES, RANGE_CHOICES, SPECTROGRAM_DEFAULTS, WINDOW_CHOICES } from './spectrogram.ts';
import type { SpectrogramSettings } from './spectrogram.ts';

const SELECT = 'rounded-md border border-border bg-surface px-1.5 py-0.5 text-fg';

export function SpectrogramControls({
  value,
  onChange,
}: {
  value: SpectrogramSettings;
  onChange: (s: SpectrogramSettings) => void;
}) {
  const { t } = useTranslation();
  const set = <K extends keyof SpectrogramSettings>(k: K, v: number) => onChange({ ...value, [k]: v });
  return (
    <fieldset
      className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted"
      data-testid="spectrogram-controls"
    >
      <legend className="sr-only">{t('editor.spectrogram.title')}</legend>
      <span className="font-medium text-fg" aria-hidden>
        {t('editor.spectrogram.title')}
      </span>
      <label className="flex items-center gap-1">
        {t('editor.spectrogram.window')}
        <select
          className={SELECT}
          value={value.windowMs}
          onChange={(e) => set('windowMs', Number(e.target.value))}
        >
          {WINDOW_CHOICES.map((ms) => (
            <option key={ms} value={ms}>
              {t(
                ms <= 5
                  ? 'editor.spectrogram.broadband'
                  : ms >= 30
                    ? 'editor.spectrogram.narrowband'
                    : 'editor.spectrogram.ms',
                {
                  value: formatNumber(ms),
                },
              )}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-1">
        {t('editor.spectrogram.range')}
        <select
          className={SELECT}
          value={value.rangeDb}
          onChange={(e) => set('rangeDb', Number(e.target.value))}
        >
          {RANGE_CHOICES.map((db) => (
            <option key={db} value={db}>
              {t('editor.spectrogram.db', { value: formatNumber(db) })}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-1">
        {t('editor.spectrogram.max')}
        <select className={SELECT} value={value.maxHz} onChange={(e) => set('maxHz', Number(e.target.value))}>
          {MAX_HZ_CHOICES.map((hz) => (
            <option key={hz} value={hz}>
              {t('editor.spectrogram.hz', { value: formatNumber(hz) })}
            </option>
          ))}
        </select>
      </label>
      {JSON.stringify(value) !== JSON.stringify(SPECTROGRAM_DEFAULTS) && (
        <button
          type="button"
          className="text-accent hover:underline"
          onClick={() => onChange(SPECTROGRAM_DEFAULTS)}
        >
          {t('editor.spectrogram.reset')}
        </button>
      )}
    </fieldset>
  );
}
