// How long this job should take, from its audio length and the speed measured on the user's own recent
// alignments (processing_speed: audio seconds aligned per second of work), instead of a fixed range.
import { useTranslation } from 'react-i18next';
import { useAlignmentList } from '../../../lib/api/get-alignments.ts';
import { formatDuration } from '../../../lib/format.ts';

/** Seconds of work expected for `audioSeconds`, from the median of measured speeds; null without any. */
export function estimateSeconds(
  audioSeconds: number | null,
  speeds: readonly (number | null)[],
): number | null {
  const measured = speeds
    .filter((s): s is number => s !== null && Number.isFinite(s) && s > 0)
    .sort((a, b) => a - b);
  if (audioSeconds === null || measured.length === 0) return null;
  const mid = Math.floor(measured.length / 2);
  const median = measured.length % 2 ? measured[mid]! : (measured[mid - 1]! + measured[mid]!) / 2;
  // Never promise less than a few seconds: loading the model and writing the result take that much.
  return Math.max(5, Math.ceil(audioSeconds / median));
}

export function ProcessingEstimate({ duration }: { duration: number | null }) {
  const { t } = useTranslation();
  const recent = useAlignmentList({ status: 'completed', page_size: 20 });
  const seconds = estimateSeconds(duration, recent.data?.results.map((a) => a.processing_speed) ?? []);
  return (
    <p className="mt-6 text-sm text-muted" data-testid="processing-estimate">
      {seconds !== null
        ? t('results.estimate', { time: formatDuration(seconds), duration: formatDuration(duration ?? 0) })
        : duration !== null
          ? t('results.estimateFirst', { duration: formatDuration(duration) })
          : t('results.leave')}
    </p>
  );
}
