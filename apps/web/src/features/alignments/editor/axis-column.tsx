// The names and scales beside the waveform, as in Praat's TextGrid editor: the spectrogram's frequency
// axis (kHz), the time ruler's unit, and the tier names, each at the height of what it names. It stays
// put while the waveform scrolls.
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';
import { frequencyTicks } from './spectrogram.ts';
import { PHONE_TIER_HEIGHT, RULER_HEIGHT, WORD_TIER_HEIGHT } from './tier-layer.tsx';
import { SPECTRO_HEIGHT, WAVE_HEIGHT } from './use-wavesurfer.ts';

export const AXIS_WIDTH = 52;

export function AxisColumn({ maxHz }: { maxHz: number }) {
  const { t } = useTranslation();
  return (
    <div
      className="shrink-0 text-[11px] leading-none text-muted select-none"
      style={{ width: AXIS_WIDTH }}
      data-testid="editor-axes"
    >
      <div style={{ height: WAVE_HEIGHT }} className="flex items-center justify-end pe-1">
        {t('editor.axes.wave')}
      </div>
      <div
        className="relative border-e border-border"
        style={{ height: SPECTRO_HEIGHT }}
        role="img"
        aria-label={t('editor.axes.frequency', { max: formatNumber(maxHz) })}
      >
        {frequencyTicks(maxHz).map((f) => (
          <span
            key={f}
            data-frequency={f}
            className="absolute end-1 tabular-nums"
            // the top label hangs below the top edge, the bottom one sits above the ruler
            style={{
              top: `${(1 - f / maxHz) * 100}%`,
              transform: f === 0 ? 'translateY(-100%)' : f === maxHz ? 'none' : 'translateY(-50%)',
            }}
          >
            {f === maxHz ? t('editor.axes.khz', { value: formatNumber(f / 1000) }) : formatNumber(f / 1000)}
          </span>
        ))}
      </div>
      <div style={{ height: RULER_HEIGHT + 1 }} className="flex items-center justify-end pe-1">
        {t('editor.axes.seconds')}
      </div>
      <div
        style={{ height: WORD_TIER_HEIGHT + 1 }}
        className="flex items-center justify-end pe-1 font-medium text-fg"
      >
        {t('editor.tiers.words')}
      </div>
      <div
        style={{ height: PHONE_TIER_HEIGHT + 2 }}
        className="flex items-center justify-end pe-1 font-medium text-fg"
      >
        {t('editor.tiers.phones')}
      </div>
    </div>
  );
}
