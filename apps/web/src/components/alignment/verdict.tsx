// The result's verdict shown the same way everywhere (results page, lists, dashboard, share and demo
// pages): good green, partial amber, mismatch and no speech red, with the banner that says what looks
// wrong and what to check.
import { useTranslation } from 'react-i18next';
import type { AlignmentResult, QualityReason, Verdict } from '@tazamun/contracts/alignment-result';
import { formatNumber, formatPercent } from '../../lib/format.ts';
import { Alert } from '../ui/card.tsx';

const BADGE: Record<Verdict, string> = {
  good: 'bg-success-soft text-success',
  partial: 'bg-warning-soft text-warning',
  mismatch: 'bg-danger-soft text-danger',
  no_speech: 'bg-danger-soft text-danger',
};

const TONE = { good: 'success', partial: 'warning', mismatch: 'danger', no_speech: 'danger' } as const;

export function VerdictBadge({ verdict }: { verdict: Verdict | null | undefined }) {
  const { t } = useTranslation();
  if (!verdict) return null;
  return (
    <span
      className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${BADGE[verdict]}`}
      data-testid="verdict-badge"
      data-verdict={verdict}
      title={t('quality.badge', { verdict: t(`quality.verdict.${verdict}`) })}
    >
      {t(`quality.verdict.${verdict}`)}
    </span>
  );
}

function reasonText(
  t: ReturnType<typeof useTranslation>['t'],
  r: QualityReason,
  result: AlignmentResult,
): string {
  // the estimated WER reads as a percentage, as in the metrics tab ("100 %", not "1")
  const value =
    r.value === undefined
      ? ''
      : r.code === 'transcript_mismatch'
        ? formatPercent(r.value)
        : formatNumber(r.value, { maximumFractionDigits: 1 });
  // one key per reason code; the typed t() gives up on this many keys (TS2589), so the key is looked up
  // through the plain signature (the i18n test checks every key exists in the three languages)
  const tr = t as unknown as (key: string, options: Record<string, string | number>) => string;
  // counts of words choose the plural form of their message ("1 word was", "٣ كلمات")
  const counted = r.code === 'words_not_found' || r.code === 'low_confidence';
  return tr(`quality.reasons.${r.code}`, {
    value,
    ...(counted && r.value !== undefined ? { count: r.value } : {}),
    detected: result.detected_language ?? '?',
    chosen: result.language,
  });
}

/**
 * The banner above a result: what the verdict means, why, and (unless good) what to check. The words
 * behind a reason are named, each a link to its place in the transcript (`onWord`, by word index). A
 * good verdict with reasons is "good, with notes": the notes did not lower it.
 */
export function QualityBanner({
  result,
  onWord,
}: {
  result: AlignmentResult;
  onWord?: (index: number) => void;
}) {
  const { t } = useTranslation();
  const { verdict, reasons } = result.quality;
  const byIndex = new Map(result.words.map((w) => [w.index, w]));
  const withNotes = verdict === 'good' && reasons.length > 0;
  const checks =
    verdict === 'no_speech'
      ? (['file'] as const)
      : verdict === 'good'
        ? []
        : (['transcript', 'language', 'file'] as const);
  return (
    <div data-testid="quality-banner" data-verdict={verdict}>
      <Alert
        tone={TONE[verdict]}
        title={withNotes ? t('quality.title.goodWithNotes') : t(`quality.title.${verdict}`)}
      >
        <p>{t(`quality.body.${verdict}`)}</p>
        {reasons.length > 0 && (
          <ul className="mt-2 list-disc ps-5">
            {reasons.map((r) => (
              <li key={r.code} data-reason={r.code}>
                <span data-reason-text>{reasonText(t, r, result)}</span>
                {r.words && r.words.length > 0 && (
                  <span className="ms-1 inline-flex flex-wrap gap-1 align-baseline" data-reason-words>
                    {r.words.slice(0, 30).map((i) => {
                      const w = byIndex.get(i);
                      if (!w) return null;
                      return onWord ? (
                        <button
                          key={i}
                          type="button"
                          data-word-link={i}
                          onClick={() => onWord(i)}
                          className="rounded bg-surface px-1 underline decoration-dotted underline-offset-4 hover:decoration-solid"
                          dir="auto"
                          title={t('quality.goToWord', { word: w.word })}
                        >
                          {w.word}
                        </button>
                      ) : (
                        <bdi key={i} className="rounded bg-surface px-1" data-word-link={i}>
                          {w.word}
                        </bdi>
                      );
                    })}
                    {r.words.length > 30 && (
                      <span>{t('quality.moreWords', { count: r.words.length - 30 })}</span>
                    )}
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
        {checks.length > 0 && (
          <>
            <p className="mt-2 font-medium">{t('quality.check')}</p>
            <ul className="list-disc ps-5">
              {checks.map((c) => (
                <li key={c}>{t(`quality.checks.${c}`)}</li>
              ))}
            </ul>
          </>
        )}
      </Alert>
    </div>
  );
}
