// What is selected in the tiers (a word, a phone, a boundary), its times and its label, which can be
// corrected here; phones can be split at the cursor or merged with the next one.
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { formatNumber, formatSeconds, formatSecondsRange } from '../../../lib/format.ts';
import { Button } from '../../../components/ui/button.tsx';
import type { Selection } from './tier-layer.tsx';

export function selectionSpan(d: AlignmentResult, s: Selection): { start: number; end: number } | null {
  if (!s) return null;
  const w = d.words[s.word];
  if (!w) return null;
  if (s.tier === 'word') return w.start === null || w.end === null ? null : { start: w.start, end: w.end };
  const p = w.phones[s.phone];
  return p ? { start: p.start, end: p.end } : null;
}

export function SelectionPanel({
  draft,
  selection,
  edgeAt,
  dir,
  label,
  onLabel,
  onApply,
  onSplit,
  onMerge,
  onLeaveLabel,
  labelInput,
}: {
  draft: AlignmentResult;
  selection: Selection;
  edgeAt: number | null;
  dir: 'rtl' | 'ltr';
  label: string;
  onLabel: (value: string) => void;
  onApply: () => void;
  onSplit: () => void;
  onMerge: () => void;
  onLeaveLabel: () => void;
  labelInput: Ref<HTMLInputElement>;
}) {
  const { t } = useTranslation();
  const word = selection ? draft.words[selection.word] : undefined;
  const span = selectionSpan(draft, selection);
  return (
    <section
      className="min-w-0 rounded-xl border border-border bg-surface p-4"
      data-testid="editor-selection"
      aria-label={t('editor.selectionTitle')}
    >
      {edgeAt !== null && (
        <p className="mb-2 text-sm" data-testid="editor-boundary">
          {t('editor.boundary', { time: formatSeconds(edgeAt) })}
        </p>
      )}
      {selection && word ? (
        <>
          <h3 className="font-semibold break-words">
            {selection.tier === 'word'
              ? t('editor.wordN', { n: formatNumber(selection.word + 1) })
              : t('editor.phoneN', { n: formatNumber(selection.phone + 1), word: word.word })}
          </h3>
          <p className="text-sm text-muted tabular-nums">
            {span ? formatSecondsRange(span.start, span.end) : t('editor.check.missing')}
          </p>
          <form
            className="mt-3 flex min-w-0 gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              onApply();
            }}
          >
            <label className="sr-only" htmlFor="editor-label">
              {t('editor.label')}
            </label>
            <input
              id="editor-label"
              ref={labelInput}
              value={label}
              dir={selection.tier === 'word' ? dir : 'ltr'}
              onChange={(e) => onLabel(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape') onLeaveLabel();
              }}
              className="w-0 min-w-0 flex-1 rounded-md border border-border bg-surface px-2 py-1"
            />
            <Button size="sm" type="submit" variant="secondary">
              {t('editor.apply')}
            </Button>
          </form>
          {selection.tier === 'phone' && (
            <div className="mt-3 flex flex-wrap gap-2">
              <Button size="sm" variant="ghost" onClick={onSplit} aria-keyshortcuts="S">
                {t('editor.split')}
              </Button>
              <Button size="sm" variant="ghost" onClick={onMerge} aria-keyshortcuts="M">
                {t('editor.merge')}
              </Button>
            </div>
          )}
        </>
      ) : (
        edgeAt === null && <p className="text-sm text-muted">{t('editor.nothingSelected')}</p>
      )}
    </section>
  );
}
