// The workspace's toolbar: play, play the selection, speed, the cursor's time, zoom and the shortcuts.
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';
import { PLAYBACK_RATES } from '../../../lib/wavesurfer.ts';
import { Button } from '../../../components/ui/button.tsx';
import { formatClock } from '../../../components/alignment/time.ts';

export function EditorToolbar({
  ready,
  playing,
  canPlaySelection,
  rate,
  time,
  help,
  onPlayPause,
  onPlaySelection,
  onRate,
  onZoomOut,
  onZoomFit,
  onZoomIn,
  onHelp,
}: {
  ready: boolean;
  playing: boolean;
  canPlaySelection: boolean;
  rate: number;
  time: number;
  help: boolean;
  onPlayPause: () => void;
  onPlaySelection: () => void;
  onRate: (rate: number) => void;
  onZoomOut: () => void;
  onZoomFit: () => void;
  onZoomIn: () => void;
  onHelp: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label={t('editor.toolbar')}>
      <Button size="sm" onClick={onPlayPause} disabled={!ready} aria-keyshortcuts="Space">
        {playing ? t('editor.pause') : t('editor.play')}
      </Button>
      <Button
        size="sm"
        variant="secondary"
        disabled={!ready || !canPlaySelection}
        onClick={onPlaySelection}
        aria-keyshortcuts="P"
      >
        {t('editor.playSelection')}
      </Button>
      <label className="flex items-center gap-2 text-sm text-muted">
        {t('editor.speed')}
        <select
          value={rate}
          onChange={(e) => onRate(Number(e.target.value))}
          className="rounded-md border border-border bg-surface px-2 py-1 text-fg"
        >
          {PLAYBACK_RATES.workspace.map((r) => (
            <option key={r} value={r}>
              {formatNumber(r)}×
            </option>
          ))}
        </select>
      </label>
      <span className="text-sm text-muted">
        {t('editor.cursor')}{' '}
        <span dir="ltr" className="font-mono tabular-nums text-fg" data-testid="editor-time">
          {formatClock(time, true)}
        </span>
      </span>
      <div className="ms-auto flex flex-wrap items-center gap-1">
        <Button
          size="sm"
          variant="ghost"
          onClick={onZoomOut}
          aria-label={t('editor.zoomOut')}
          aria-keyshortcuts="-"
          disabled={!ready}
        >
          −
        </Button>
        <Button size="sm" variant="ghost" onClick={onZoomFit} disabled={!ready}>
          {t('editor.zoomFit')}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={onZoomIn}
          aria-label={t('editor.zoomIn')}
          aria-keyshortcuts="+"
          disabled={!ready}
        >
          +
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={onHelp}
          aria-expanded={help}
          aria-controls="editor-shortcuts"
          aria-keyshortcuts="?"
        >
          {t('editor.help.open')}
        </Button>
      </div>
    </div>
  );
}
