import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isApiError } from '../../../lib/api-client.ts';
import { contentDirection } from '../../../lib/content-direction.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useLanguageName } from '../../../lib/use-language-name.ts';
import { AlignmentViewer } from '../../../components/alignment/alignment-viewer.tsx';
import { VerdictBadge } from '../../../components/alignment/verdict.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useSharedAlignment } from '../api/get-shared-alignment.ts';
import { Sep } from '../../../components/ui/separator.tsx';

/** The public, read-only page of an alignment its owner chose to share. */
export function SharedPage() {
  const { t } = useTranslation();
  const languageName = useLanguageName();
  const { token = '' } = useParams();
  const shared = useSharedAlignment(token);
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      {shared.isPending && (
        <div className="flex justify-center py-16 text-accent">
          <Spinner label={t('common.loading')} />
        </div>
      )}
      {shared.isError && (
        <Alert tone="danger">
          {isApiError(shared.error) && shared.error.status === 404
            ? t('share.notFound')
            : shared.error.message}
        </Alert>
      )}
      {shared.data && (
        <>
          <header className="mb-6">
            <p className="text-sm text-accent">{t('share.label')}</p>
            <h1
              className="mt-1 text-2xl font-semibold tracking-tight sm:text-3xl"
              dir={contentDirection(shared.data.language)}
            >
              {shared.data.title}
            </h1>
            <p className="mt-1 text-sm text-muted">
              {languageName(shared.data.language)}
              <Sep />
              {formatDateTime(shared.data.created_at)} <VerdictBadge verdict={shared.data.verdict} />
            </p>
          </header>
          <AlignmentViewer result={shared.data.result} audioUrl={shared.data.audio_url} />
        </>
      )}
    </div>
  );
}
