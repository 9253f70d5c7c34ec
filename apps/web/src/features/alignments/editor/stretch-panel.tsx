// The stretch selected on the waveform (a drag) or in the word tier (Shift+arrows): which words a
// re-alignment will change and which corrected words it keeps, its text, and the job's state.
import { useTranslation } from 'react-i18next';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import type { RealignStatus } from '@tazamun/contracts/revisions';
import { formatSecondsRange } from '../../../lib/format.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { stretchWords } from './edit-model.ts';
import type { Stretch } from './use-wavesurfer.ts';

export function StretchPanel({
  draft,
  stretch,
  text,
  onText,
  dir,
  dirty,
  running,
  state,
  onRealign,
  onClear,
}: {
  draft: AlignmentResult;
  stretch: Stretch | null;
  text: string;
  onText: (value: string) => void;
  dir: 'rtl' | 'ltr';
  dirty: boolean;
  running: boolean;
  state: RealignStatus | null;
  onRealign: () => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const st = stretch ? stretchWords(draft, stretch.start, stretch.end) : null;
  const changing = st ? draft.words.slice(st.from, st.to).map((w) => w.word) : [];
  return (
    <section className="min-w-0 rounded-xl border border-border bg-surface p-4" data-testid="editor-stretch">
      <h3 className="font-semibold">{t('editor.stretch.title')}</h3>
      {stretch && st ? (
        <>
          <p className="text-sm text-muted tabular-nums">{formatSecondsRange(st.start, st.end)}</p>
          <p className="mt-1 text-sm break-words" data-testid="stretch-words">
            {changing.length
              ? t('editor.stretch.changes', { words: changing.join(' ') })
              : t('editor.stretch.noWords')}
          </p>
          {st.kept.length > 0 && (
            <p className="mt-1 text-sm text-muted break-words" data-testid="stretch-kept">
              {t('editor.stretch.kept', { words: st.kept.map((i) => draft.words[i]!.word).join(' ') })}
            </p>
          )}
          <label className="mt-2 block text-sm text-muted" htmlFor="stretch-text">
            {t('editor.stretch.text')}
          </label>
          <textarea
            id="stretch-text"
            dir={dir}
            value={text}
            onChange={(e) => onText(e.target.value)}
            rows={2}
            className="mt-1 w-full rounded-md border border-border bg-surface px-2 py-1"
          />
          {dirty && <p className="mt-1 text-sm text-warning">{t('editor.stretch.saveFirst')}</p>}
          {state?.status === 'failed' && (
            <Alert tone="danger" title={t('editor.stretch.failed')}>
              {state.error?.detail}
            </Alert>
          )}
          <div className="mt-2 flex flex-wrap gap-2">
            <Button size="sm" onClick={onRealign} disabled={dirty} loading={running}>
              {running ? t('editor.stretch.running') : t('editor.stretch.realign')}
            </Button>
            <Button size="sm" variant="ghost" onClick={onClear}>
              {t('editor.stretch.clear')}
            </Button>
          </div>
        </>
      ) : (
        <p className="text-sm text-muted">{t('editor.stretch.hint')}</p>
      )}
    </section>
  );
}
