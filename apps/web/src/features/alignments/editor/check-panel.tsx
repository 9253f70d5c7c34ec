// The words to check first: not found in the audio, placed below the account's confidence threshold,
// or named by the verdict as fitting their audio poorly. Each one selects the word in the tiers.
import { useTranslation } from 'react-i18next';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { formatPercent } from '../../../lib/format.ts';
import { Button } from '../../../components/ui/button.tsx';

export function CheckPanel({
  draft,
  toCheck,
  dir,
  thresholdLabel,
  onSelect,
  onNext,
}: {
  draft: AlignmentResult;
  toCheck: number[];
  dir: 'rtl' | 'ltr';
  /** the account's threshold, as the sentence under the title says it */
  thresholdLabel: string;
  onSelect: (position: number) => void;
  onNext: () => void;
}) {
  const { t } = useTranslation();
  return (
    <section className="min-w-0 rounded-xl border border-border bg-surface p-4" data-testid="editor-check">
      <h3 className="font-semibold">{t('editor.check.title')}</h3>
      <p className="text-xs text-muted">{thresholdLabel}</p>
      {toCheck.length === 0 ? (
        <p className="mt-2 text-sm text-muted">{t('editor.check.none')}</p>
      ) : (
        <>
          <ul className="mt-2 flex max-h-32 flex-wrap gap-1 overflow-y-auto" dir={dir}>
            {toCheck.map((i) => {
              const w = draft.words[i]!;
              const why =
                w.status === 'not_found'
                  ? t('editor.check.missing')
                  : t('editor.check.low', { value: formatPercent(w.confidence) });
              return (
                <li key={i}>
                  <button
                    type="button"
                    onClick={() => onSelect(i)}
                    title={why}
                    aria-label={`${w.word}: ${why}`}
                    data-check-word={i}
                    className={`rounded px-1.5 py-0.5 text-sm ${w.status === 'not_found' ? 'bg-danger-soft text-danger' : 'bg-warning-soft text-warning'}`}
                  >
                    {w.word}
                  </button>
                </li>
              );
            })}
          </ul>
          <Button size="sm" variant="ghost" className="mt-2" onClick={onNext} aria-keyshortcuts="N">
            {t('editor.check.next')}
          </Button>
        </>
      )}
    </section>
  );
}
