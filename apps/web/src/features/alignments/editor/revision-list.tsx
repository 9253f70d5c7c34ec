// The alignment's revisions, oldest first, each downloadable as a TextGrid, a read-along page or an
// EPUB made from that revision.
import { useTranslation } from 'react-i18next';
import type { RevisionSummary } from '@tazamun/contracts/revisions';
import { formatDateTime } from '../../../lib/format.ts';
import { saveBlob } from '../../../lib/download.ts';
import { toast } from '../../../stores/ui-store.ts';
import { Button } from '../../../components/ui/button.tsx';
import { exportFile } from '../api/alignments-api.ts';

const DOWNLOADS = [
  ['textgrid', 'TextGrid'],
  ['readalong', 'html'],
  ['epub', 'epub'],
] as const;

export function RevisionList({
  alignmentId,
  baseName,
  revisions,
  current,
}: {
  alignmentId: string;
  baseName: string;
  revisions: RevisionSummary[];
  current: number;
}) {
  const { t } = useTranslation();
  const download = (revision: number, format: string, ext: string) =>
    void exportFile(alignmentId, format, { revision: String(revision) }).then(
      (blob) => saveBlob(blob, `${baseName}-r${revision}.${ext}`),
      (e: Error) => toast.error(e.message),
    );
  return (
    <section className="rounded-xl border border-border bg-surface p-4" data-testid="revision-list">
      <h3 className="mb-2 font-semibold">{t('editor.revisions.title')}</h3>
      <ol className="divide-y divide-border text-sm">
        {revisions.map((r) => (
          <li
            key={r.revision}
            className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2"
            data-revision={r.revision}
          >
            <span className="font-medium">{t('editor.revisionOf', { n: r.revision })}</span>
            <span>{t(`editor.revisions.${r.author}`)}</span>
            <span className="text-muted">{formatDateTime(r.created_at)}</span>
            {r.revision > 1 && (
              <span className="text-muted">
                {t('editor.revisions.changed', { count: r.changed_words.length })}
              </span>
            )}
            {r.revision === current && (
              <span className="rounded-full bg-accent-soft px-2 text-xs text-accent">
                {t('editor.revisions.current')}
              </span>
            )}
            <span className="ms-auto flex flex-wrap gap-1">
              {DOWNLOADS.map(([format, ext]) => (
                <Button
                  key={format}
                  size="sm"
                  variant="ghost"
                  aria-label={t('editor.revisions.downloadAs', {
                    n: r.revision,
                    format: t(`export.formats.${format}`),
                  })}
                  onClick={() => download(r.revision, format, ext)}
                >
                  {t(`editor.revisions.${format}`)}
                </Button>
              ))}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
