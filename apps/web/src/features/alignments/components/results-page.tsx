import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { PROCESSING_STEPS } from '@tazamun/contracts/alignments';
import type { Progress } from '@tazamun/contracts/alignments';
import { isApiError } from '../../../lib/api-client.ts';
import {
  formatBytes,
  formatDateTime,
  formatDuration,
  formatNumber,
  formatPercent,
} from '../../../lib/format.ts';
import { AlignmentActions } from '../../../components/alignment/alignment-actions.tsx';
import { AlignmentViewer } from '../../../components/alignment/alignment-viewer.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card } from '../../../components/ui/card.tsx';
import { CheckIcon } from '../../../components/ui/icons.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { toast, useUiStore } from '../../../stores/ui-store.ts';
import { refreshEndedAlignment, useCancelAlignment } from '../api/alignments-api.ts';
import { CorrectionEditor } from '../editor/correction-editor.tsx';
import { VerdictBadge } from '../../../components/alignment/verdict.tsx';
import { ExportPanel } from './export-panel.tsx';
import { ProcessingEstimate } from './processing-estimate.tsx';
import { ShareControls } from './share-controls.tsx';
import { useAlignment } from '../../../lib/api/get-alignment.ts';
import { useAudioUrl } from '../../../lib/api/get-audio-url.ts';
import { useAlignmentProgress } from '../../../lib/api/get-progress.ts';
import { useLanguageName } from '../../../lib/use-language-name.ts';
import { Facts } from '../../../components/ui/separator.tsx';

function ProgressSteps({ progress }: { progress: Progress }) {
  const { t } = useTranslation();
  return (
    <div>
      <div className="mb-2 flex justify-between text-sm">
        <span className="font-medium">
          {progress.step ? t(`results.steps.${progress.step}`) : t('results.waiting')}
        </span>
        <span className="tabular-nums text-muted">{formatPercent(progress.progress / 100)}</span>
      </div>
      <div
        className="h-2 overflow-hidden rounded-full bg-surface-2"
        role="progressbar"
        aria-valuenow={progress.progress}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div
          className="h-full rounded-full bg-accent transition-[width] duration-500"
          style={{ width: `${progress.progress}%` }}
        />
      </div>
      <ol className="mt-6 grid gap-3 sm:grid-cols-5" data-testid="progress-steps">
        {PROCESSING_STEPS.map((step, i) => {
          const state = progress.steps.find((s) => s.step === step)?.state ?? 'pending';
          return (
            <li
              key={step}
              data-state={state}
              className="flex items-center gap-2 text-sm sm:flex-col sm:text-center"
            >
              <span
                className={`flex size-8 shrink-0 items-center justify-center rounded-full border ${
                  state === 'done'
                    ? 'border-accent bg-accent text-accent-fg'
                    : state === 'active'
                      ? 'border-accent text-accent'
                      : 'border-border text-muted'
                }`}
              >
                {state === 'done' ? (
                  <CheckIcon size={16} />
                ) : state === 'active' ? (
                  <Spinner size={16} />
                ) : (
                  formatNumber(i + 1)
                )}
              </span>
              <span className={state === 'pending' ? 'text-muted' : 'text-fg'}>
                {t(`results.steps.${step}`)}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

export function ResultsPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const mode = params.get('mode') === 'correct' ? 'correct' : 'view';
  const queryClient = useQueryClient();
  const notify = useUiStore((s) => s.notify);
  const detail = useAlignment(id);
  const languageName = useLanguageName();
  const running = detail.data?.status === 'queued' || detail.data?.status === 'processing';
  const progress = useAlignmentProgress(id, running);
  const finished = progress.data && !['queued', 'processing'].includes(progress.data.status);
  useEffect(() => {
    if (!finished || !running) return;
    refreshEndedAlignment(queryClient, id);
    if (progress.data?.status === 'completed')
      notify({ type: 'success', title: t('results.completed'), message: detail.data?.title, subject: id });
    if (progress.data?.status === 'failed')
      notify({
        type: 'error',
        title: t('results.failed'),
        message: progress.data.error?.detail,
        subject: id,
      });
  }, [finished, running, queryClient, id, notify, t, progress.data, detail.data?.title]);
  const audioUrl = useAudioUrl(id, detail.data?.status === 'completed');
  const cancel = useCancelAlignment(id, {
    onError: (e) => toast.error(e.message),
  });

  if (detail.isPending) {
    return (
      <div className="flex justify-center py-24 text-accent">
        <Spinner label={t('common.loading')} />
      </div>
    );
  }
  if (detail.isError) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-16">
        <Alert tone="danger">
          {isApiError(detail.error) && detail.error.status === 404
            ? t('results.notFound')
            : detail.error.message}
        </Alert>
      </div>
    );
  }
  const a = detail.data;
  return (
    <div className="mx-auto max-w-6xl min-w-0 px-4 py-10 sm:px-6">
      <header className="mb-6 flex flex-wrap items-end justify-between gap-x-6 gap-y-3">
        <div className="min-w-0 flex-1 basis-72">
          <p className="text-sm text-muted">
            <Link to="/projects" className="hover:text-fg">
              {t('nav.projects')}
            </Link>
          </p>
          {/* bdi, not dir=auto: a Latin title on an Arabic page keeps its own direction, the page's side */}
          <h1 className="mt-1 truncate text-2xl font-semibold tracking-tight sm:text-3xl">
            <bdi>{a.title}</bdi>
          </h1>
          <p className="mt-1 text-sm break-words text-muted">
            <Facts>
              {languageName(a.language)}
              <>
                <bdi>{a.file_name}</bdi> ({formatBytes(a.file_size)})
              </>
              {a.duration !== null && formatDuration(a.duration)}
              {formatDateTime(a.created_at)}
            </Facts>
          </p>
          {a.adapted_model && (
            <p className="mt-1 text-sm text-muted" data-testid="alignment-model">
              {t('results.adaptedModel')} <bdi dir="ltr">{a.adapted_model}</bdi>
            </p>
          )}
        </div>
        {/* status, verdict and actions stay together, at the end of the title's row or under it */}
        <div className="flex flex-wrap items-center gap-2" data-testid="result-header-side">
          <span
            className={`rounded-full px-3 py-1 text-sm font-medium ${
              a.status === 'completed'
                ? 'bg-success-soft text-success'
                : a.status === 'failed'
                  ? 'bg-danger-soft text-danger'
                  : 'bg-accent-soft text-accent'
            }`}
            data-testid="alignment-status"
          >
            {t(`results.status.${a.status}`)}
          </span>
          <VerdictBadge verdict={a.verdict} />
          <AlignmentActions alignment={a} onDeleted={() => navigate('/projects', { replace: true })} />
        </div>
      </header>

      {running && (
        <Card>
          {progress.data ? (
            <ProgressSteps progress={progress.data} />
          ) : (
            <Spinner label={t('common.loading')} />
          )}
          <ProcessingEstimate duration={a.duration} />
          <Button
            variant="secondary"
            size="sm"
            className="mt-4"
            onClick={() => cancel.mutate()}
            loading={cancel.isPending}
          >
            {t('results.cancel')}
          </Button>
        </Card>
      )}
      {a.status === 'failed' && (
        <Alert tone="danger" title={t('results.failed')}>
          {a.error?.detail}
          {a.error?.quota_refunded && <p className="mt-1">{t('results.refunded')}</p>}
        </Alert>
      )}
      {a.status === 'cancelled' && <Alert tone="warning">{t('results.cancelled')}</Alert>}
      {a.status === 'completed' && a.result && (
        <div className="min-w-0 space-y-8">
          <ShareControls id={a.id} shared={a.shared} transcript={a.original_text} />
          <div className="flex rounded-lg bg-surface-2 p-1 w-fit" role="group" aria-label={t('editor.views')}>
            {(['view', 'correct'] as const).map((m) => (
              <button
                key={m}
                type="button"
                aria-pressed={mode === m}
                onClick={() => setParams(m === 'correct' ? { mode: 'correct' } : {}, { replace: true })}
                className={`rounded-md px-4 py-1.5 text-sm font-medium ${mode === m ? 'bg-surface text-fg shadow-sm' : 'text-muted hover:text-fg'}`}
              >
                {t(`editor.${m}`)}
              </button>
            ))}
          </div>
          {mode === 'correct' ? (
            // a new revision (save, re-alignment) starts a fresh draft inside, the audio stays loaded
            <CorrectionEditor
              key={a.id}
              alignmentId={a.id}
              title={a.title}
              result={a.result}
              audioUrl={audioUrl}
            />
          ) : (
            <AlignmentViewer result={a.result} audioUrl={audioUrl} />
          )}
          <section>
            <h2 className="mb-4 text-lg font-semibold">{t('export.title')}</h2>
            <ExportPanel id={a.id} title={a.title} hasVideo={a.video !== null} />
          </section>
        </div>
      )}
    </div>
  );
}
