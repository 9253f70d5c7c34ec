import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { contentDirection } from '../../../lib/content-direction.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { AlignmentViewer } from '../../../components/alignment/alignment-viewer.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { ArrowForwardIcon } from '../../../components/ui/icons.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useDemo } from '../api/get-demo.ts';
import { useCategoryLabel } from '../../../lib/demo-category.ts';
import { Sep } from '../../../components/ui/separator.tsx';

export function DemoPlayerPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const demo = useDemo(id);
  const categoryLabel = useCategoryLabel();
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <Link to="/demos" className="mb-6 inline-flex items-center gap-1.5 text-sm text-muted hover:text-fg">
        <ArrowForwardIcon size={16} className="rotate-180" />
        {t('demos.back')}
      </Link>
      {demo.isPending && (
        <div className="flex justify-center py-16 text-accent">
          <Spinner label={t('common.loading')} />
        </div>
      )}
      {demo.isError && (
        <Alert tone="danger">
          {isApiError(demo.error) && demo.error.status === 404 ? t('demos.notFound') : demo.error.message}
        </Alert>
      )}
      {demo.data && (
        <>
          <header className="mb-6">
            <p className="text-sm text-accent">{categoryLabel(demo.data.category)}</p>
            <h1
              className="mt-1 text-2xl font-semibold tracking-tight sm:text-3xl"
              dir={contentDirection(demo.data.language)}
            >
              {demo.data.title}
            </h1>
            <p className="mt-2 max-w-3xl text-muted" dir="auto">
              {demo.data.description}
            </p>
            <p className="mt-2 text-xs text-muted">
              {t('demos.licence')}: <span dir="auto">{demo.data.licence}</span>
              {demo.data.source && (
                <>
                  <Sep />
                  {t('demos.source')}: <span dir="auto">{demo.data.source}</span>
                </>
              )}
            </p>
          </header>
          <AlignmentViewer result={demo.data.result} audioUrl={demo.data.audio_url} />
        </>
      )}
    </div>
  );
}
