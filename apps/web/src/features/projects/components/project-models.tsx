// The project page's "Models" section: the project's adapted acoustic models with their figures, the
// adaptation of one language (progress followed while it runs), deleting a model, and the project's
// setting that makes its uploads use them.
import { Fragment, useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { useController, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { AdaptedModel } from '@tazamun/contracts/models';
import type { Project } from '@tazamun/contracts/projects';
import { LanguagePicker } from '../../../components/alignment/language-picker.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { Checkbox } from '../../../components/ui/field.tsx';
import { confirmAction } from '../../../components/ui/confirm.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useFieldErrorText } from '../../../lib/form-errors.ts';
import {
  formatBytes,
  formatDateTime,
  formatDuration,
  formatNumber,
  formatPercent,
} from '../../../lib/format.ts';
import { useLanguageName } from '../../../lib/use-language-name.ts';
import { toast } from '../../../stores/ui-store.ts';
import {
  AdaptForm,
  useDeleteModel,
  useModels,
  useRerunProject,
  useSetUseAdaptedModel,
  useStartAdaptation,
} from '../api/models-api.ts';
import type { AdaptFormInput } from '../api/models-api.ts';
import { useProjectLanguage } from '../hooks/use-project-language.ts';
import { Sep } from '../../../components/ui/separator.tsx';

function Progress({ model }: { model: AdaptedModel }) {
  const { t } = useTranslation();
  return (
    <div className="mt-2">
      <div className="mb-1 flex justify-between text-xs text-muted">
        <span>{t(`projects.models.status.${model.status}`)}</span>
        <span className="tabular-nums">{formatPercent(model.progress / 100)}</span>
      </div>
      <div
        className="h-2 overflow-hidden rounded-full bg-surface-2"
        role="progressbar"
        aria-label={t('projects.models.progress')}
        aria-valuenow={model.progress}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div
          className="h-full rounded-full bg-accent transition-[width] duration-500"
          style={{ width: `${model.progress}%` }}
        />
      </div>
    </div>
  );
}

function Figure({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={`flex justify-between gap-3 ${wide ? 'sm:col-span-2' : ''}`}>
      <dt className="text-muted">{label}</dt>
      <dd className="text-end tabular-nums">{children}</dd>
    </div>
  );
}

function ModelItem({ model, projectId }: { model: AdaptedModel; projectId: string }) {
  const { t } = useTranslation();
  const languageName = useLanguageName();
  const remove = useDeleteModel(projectId, {
    onSuccess: () => toast.success(t('projects.models.deleted')),
    onError: (e) => toast.error(e.message),
  });
  const rerun = useRerunProject(projectId, {
    onSuccess: (r) => toast.success(t('projects.models.rerunQueued', { count: r.queued })),
    onError: (e) => toast.error(e.message),
  });
  const f = model.figures;
  const active = model.status === 'queued' || model.status === 'processing';
  return (
    <li className="rounded-xl border border-border p-4" data-testid="model-item" data-status={model.status}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium">
            {languageName(model.language)}
            {model.in_use && (
              <span
                className="ms-2 rounded-full bg-success-soft px-2 py-0.5 text-xs font-medium text-success"
                data-testid="model-in-use"
              >
                {t('projects.models.inUse')}
              </span>
            )}
          </p>
          {model.name && (
            <p className="mt-0.5 text-xs break-all text-muted">
              <bdi dir="ltr" data-testid="model-name">
                {model.name}
              </bdi>
            </p>
          )}
          <p className="mt-0.5 text-xs text-muted">
            {/* while it runs, the progress bar below says the status */}
            {!active && (
              <>
                {t(`projects.models.status.${model.status}`)}
                <Sep />
              </>
            )}
            {formatDateTime(model.completed_at ?? model.created_at)}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {model.status === 'completed' && (
            <Button
              size="sm"
              variant="secondary"
              loading={rerun.isPending}
              onClick={() =>
                confirmAction({
                  title: t('projects.models.rerunTitle'),
                  body: t('projects.models.rerunBody', { language: languageName(model.language) }),
                  action: t('projects.models.rerun'),
                  onConfirm: () => rerun.mutateAsync(model.id),
                })
              }
            >
              {t('projects.models.rerun')}
            </Button>
          )}
          <Button
            size="sm"
            variant="ghost"
            className="text-danger"
            loading={remove.isPending}
            onClick={() =>
              confirmAction({
                title: t('projects.models.deleteTitle'),
                body: t(active ? 'projects.models.deleteRunning' : 'projects.models.deleteBody'),
                action: t('projects.models.delete'),
                onConfirm: () => remove.mutateAsync(model.id),
              })
            }
          >
            {t('projects.models.delete')}
          </Button>
        </div>
      </div>
      {active && <Progress model={model} />}
      {model.error && (
        <div className="mt-2">
          <Alert tone="danger">{model.error.detail}</Alert>
        </div>
      )}
      {f && (
        <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2" data-testid="model-figures">
          <Figure label={t('projects.models.figures.speech')}>
            {formatDuration(f.seconds)} ({formatNumber(f.hours, { maximumFractionDigits: 2 })}{' '}
            {t('projects.models.figures.hoursUnit')})
          </Figure>
          <Figure label={t('projects.models.figures.recordings')}>
            {formatNumber(f.recordings)}
            {f.skipped > 0 && <> ({t('projects.models.figures.skipped', { count: f.skipped })})</>}
          </Figure>
          <Figure label={t('projects.models.figures.groundTruth')}>
            {formatNumber(f.ground_truth_words)}
          </Figure>
          <Figure label={t('projects.models.figures.passes')}>{formatNumber(f.iterations.length)}</Figure>
          <Figure label={t('projects.models.figures.likelihood')} wide>
            {/* first pass on the left in every language. Each figure is isolated on its own: Arabic-Indic
                digits are right-to-left numbers to the bidi algorithm, so one run of them joined by arrows
                read right to left with its minus signs on the wrong side, even inside an ltr bdi */}
            <bdi dir="ltr" data-testid="model-likelihood">
              {f.iterations.map((i, n) => (
                <Fragment key={n}>
                  {n > 0 && ' → '}
                  <bdi dir="ltr" data-testid="model-likelihood-pass">
                    {formatNumber(i.log_likelihood, { maximumFractionDigits: 2 }).replace(
                      /[\u061c\u200e\u200f]/g,
                      '',
                    )}
                  </bdi>
                </Fragment>
              ))}
            </bdi>
          </Figure>
          <Figure label={t('projects.models.figures.phonesAdded')}>
            {f.phones_added.length === 0 ? (
              '—'
            ) : (
              <bdi dir="ltr" className="font-mono">
                {f.phones_added.map((p) => p.ipa).join(' ')}
              </bdi>
            )}
          </Figure>
          <Figure label={t('projects.models.figures.base')}>
            <bdi dir="ltr" className="break-all">
              {f.base_model}
            </bdi>
          </Figure>
          <Figure label={t('projects.models.figures.size')}>{formatBytes(f.size_bytes)}</Figure>
        </dl>
      )}
    </li>
  );
}

export function ProjectModels({ project }: { project: Project }) {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const models = useModels(project.id);
  // the language of the project's recordings, once they are read, unless one was chosen already
  const projectLanguage = useProjectLanguage(project.id);
  const form = useForm<AdaptFormInput>({
    resolver: zodResolver(AdaptForm),
    defaultValues: { language: projectLanguage },
    reValidateMode: 'onSubmit',
  });
  const language = useController({ control: form.control, name: 'language' });
  useEffect(() => {
    if (projectLanguage && !form.getValues('language')) form.setValue('language', projectLanguage);
  }, [projectLanguage, form]);
  const start = useStartAdaptation(project.id, {
    onSuccess: () => toast.success(t('projects.models.started')),
  });
  // the box's value between a click and the server's answer
  const [asked, setAsked] = useState<boolean | null>(null);
  const setting = useSetUseAdaptedModel(project.id, {
    onError: (e) => toast.error(e.message),
  });
  const onSubmit = form.handleSubmit((body) => start.mutate(body));
  const list = models.data?.results ?? [];
  const storage = models.data?.storage;
  const busy = list.some((m) => m.status === 'queued' || m.status === 'processing');

  return (
    <section
      aria-labelledby={`models-${project.id}`}
      className="mb-6 space-y-3 rounded-xl border border-border p-4"
      data-testid="project-models"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={`models-${project.id}`} className="font-semibold">
          {t('projects.models.title')}
        </h3>
        {storage && (
          <p className="text-xs text-muted" data-testid="model-storage">
            {t('projects.models.storage', {
              used: formatBytes(storage.used_bytes),
              limit: formatBytes(storage.limit_bytes),
            })}
          </p>
        )}
      </div>
      <p className="text-sm text-muted">
        {t('projects.models.hint', {
          minimum: t('units.seconds', { value: formatNumber(models.data?.min_corpus_seconds ?? 60) }),
        })}
      </p>
      <Checkbox
        label={t('projects.models.useSetting')}
        // the value asked for, from the click itself until the answer is in: the mutation's own pending
        // state arrives a task later, and a controlled box rendered in between flicks back unchecked
        checked={asked ?? project.use_adapted_model}
        disabled={setting.isPending}
        onChange={(e) => {
          const on = e.target.checked;
          setAsked(on);
          setting.mutate(on, { onSettled: () => setAsked(null) });
        }}
        data-testid="use-adapted-model"
      />
      <form
        onSubmit={(e) => void onSubmit(e)}
        noValidate
        className="flex flex-wrap items-start gap-3"
        aria-label={t('projects.models.start')}
      >
        <div className="w-full sm:w-72">
          <LanguagePicker
            label={t('projects.models.language')}
            value={language.field.value}
            onChange={language.field.onChange}
            error={errorText(form.formState.errors.language)}
          />
        </div>
        {/* level with the picker's field (below its label, above its hint), as high as the field */}
        <Button type="submit" className="sm:mt-6.5" loading={start.isPending} disabled={busy}>
          {t('projects.models.start')}
        </Button>
      </form>
      {start.error && <Alert tone="danger">{start.error.message}</Alert>}
      {models.isPending && <Spinner label={t('common.loading')} />}
      {models.isError && <Alert tone="danger">{models.error.message}</Alert>}
      {models.data && list.length === 0 && <p className="text-sm text-muted">{t('projects.models.empty')}</p>}
      {list.length > 0 && (
        <ul className="space-y-3" data-testid="model-list">
          {list.map((m) => (
            <ModelItem key={m.id} model={m} projectId={project.id} />
          ))}
        </ul>
      )}
    </section>
  );
}
