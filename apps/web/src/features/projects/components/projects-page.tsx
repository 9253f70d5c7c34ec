import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { VerdictBadge } from '../../../components/alignment/verdict.tsx';
import { Link, useSearchParams } from 'react-router';
import { useAlignmentList } from '../../../lib/api/get-alignments.ts';
import { useProjects } from '../../../lib/api/get-projects.ts';
import { useLanguageName } from '../../../lib/use-language-name.ts';
import { formatDateTime, formatDuration, formatNumber, formatPercent } from '../../../lib/format.ts';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { Alert, Card, CardTitle, EmptyState, PageHeader } from '../../../components/ui/card.tsx';
import { InputField } from '../../../components/ui/field.tsx';
import { FolderIcon, UploadIcon, WaveIcon } from '../../../components/ui/icons.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { AlignmentActions } from '../../../components/alignment/alignment-actions.tsx';
import { confirmAction } from '../../../components/ui/confirm.tsx';
import { toast } from '../../../stores/ui-store.ts';
import { useCreateProject, useDeleteProject, useMoveToProject } from '../api/projects-api.ts';
import { ProjectBatch } from './project-batch.tsx';
import { ProjectModels } from './project-models.tsx';
import { Facts } from '../../../components/ui/separator.tsx';

export function ProjectsPage() {
  const { t } = useTranslation();
  // ?project= opens one (the dashboard links there)
  const [params] = useSearchParams();
  const [selected, setSelected] = useState<string>(params.get('project') ?? '');
  const [name, setName] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const projects = useProjects();
  const languageName = useLanguageName();
  const alignments = useAlignmentList({
    project: selected || undefined,
    q: q || undefined,
    page,
    page_size: 20,
  });
  const create = useCreateProject({
    onSuccess: (p) => {
      setName('');
      setSelected(p.id);
    },
    onError: (e) => toast.error(e.message),
  });
  const remove = useDeleteProject({
    onSuccess: () => setSelected(''),
    onError: (e) => toast.error(e.message),
  });
  const move = useMoveToProject({
    onSuccess: (r) => toast.success(t('projects.moved', { name: r.project.name })),
    onError: (e) => toast.error(e.message),
  });
  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) create.mutate({ name: name.trim(), description: '' });
  };
  const list = projects.data?.results ?? [];
  const current = list.find((p) => p.id === selected);
  const item = (active: boolean) =>
    `flex w-full items-center justify-between gap-2 rounded-lg px-3 py-2 text-start text-sm ${
      active ? 'bg-surface-2 font-medium text-fg' : 'text-muted hover:text-fg'
    }`;

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <PageHeader
        title={t('projects.title')}
        subtitle={t('projects.subtitle')}
        actions={
          <ButtonLink to="/upload">
            <UploadIcon size={16} /> {t('dashboard.quick.upload')}
          </ButtonLink>
        }
      />
      <div className="grid gap-6 md:grid-cols-[16rem_1fr]">
        <aside className="space-y-4">
          <nav aria-label={t('projects.title')} className="space-y-1">
            <button type="button" className={item(selected === '')} onClick={() => setSelected('')}>
              {t('projects.all')}
            </button>
            <button type="button" className={item(selected === 'none')} onClick={() => setSelected('none')}>
              {t('projects.unassigned')}
            </button>
            {list.map((p) => (
              <button
                key={p.id}
                type="button"
                className={item(selected === p.id)}
                onClick={() => setSelected(p.id)}
              >
                <span className="flex min-w-0 items-center gap-2">
                  <FolderIcon size={16} />
                  <span className="truncate" dir="auto">
                    {p.name}
                  </span>
                </span>
                <span className="text-xs tabular-nums">{formatNumber(p.alignments_count)}</span>
              </button>
            ))}
          </nav>
          <form onSubmit={onCreate} className="space-y-2 rounded-xl border border-border p-3">
            <InputField
              label={t('projects.new')}
              value={name}
              maxLength={120}
              dir="auto"
              onChange={(e) => setName(e.target.value)}
            />
            <Button type="submit" size="sm" loading={create.isPending} disabled={!name.trim()}>
              {t('projects.create')}
            </Button>
          </form>
        </aside>

        <Card>
          <CardTitle
            action={
              current && (
                <Button
                  size="sm"
                  variant="ghost"
                  className="text-danger"
                  onClick={() =>
                    confirmAction({
                      title: t('projects.deleteTitle'),
                      body: t('projects.deleteBody', { name: current.name }),
                      action: t('projects.delete'),
                      onConfirm: () => remove.mutateAsync(current.id),
                    })
                  }
                  loading={remove.isPending}
                >
                  {t('projects.delete')}
                </Button>
              )
            }
          >
            <span dir="auto">
              {current ? current.name : selected === 'none' ? t('projects.unassigned') : t('projects.all')}
            </span>
          </CardTitle>
          {current && (
            <p className="-mt-2 mb-4 text-sm text-muted">
              {t('projects.summary', {
                count: current.alignments_count,
                duration: formatDuration(current.total_duration),
                confidence: current.mean_confidence === null ? '—' : formatPercent(current.mean_confidence),
              })}
            </p>
          )}
          {current && <ProjectBatch key={current.id} projectId={current.id} projectName={current.name} />}
          {current && <ProjectModels key={`models-${current.id}`} project={current} />}
          <InputField
            label={t('projects.search')}
            type="search"
            value={q}
            dir="auto"
            onChange={(e) => {
              setQ(e.target.value);
              setPage(1);
            }}
          />
          <div className="mt-4">
            {alignments.isPending && <Spinner label={t('common.loading')} />}
            {alignments.isError && <Alert tone="danger">{alignments.error.message}</Alert>}
            {alignments.data && alignments.data.results.length === 0 && (
              <EmptyState icon={<WaveIcon size={32} />} title={t('dashboard.recent.emptyTitle')}>
                {t('projects.empty')}
              </EmptyState>
            )}
            {alignments.data && alignments.data.results.length > 0 && (
              <ul className="divide-y divide-border" data-testid="alignment-list">
                {alignments.data.results.map((a) => (
                  <li key={a.id} className="flex flex-wrap items-center gap-3 py-3">
                    <div className="min-w-0 flex-1">
                      <Link to={`/results/${a.id}`} className="font-medium hover:text-accent" dir="auto">
                        {a.title}
                      </Link>
                      <p className="text-xs text-muted">
                        <Facts>
                          {languageName(a.language)}
                          {t(`results.status.${a.status}`)}
                          {a.duration !== null && formatDuration(a.duration)}
                          {a.confidence !== null && formatPercent(a.confidence)}
                          {formatDateTime(a.created_at)}
                        </Facts>
                      </p>
                    </div>
                    <VerdictBadge verdict={a.verdict} />
                    {list.length > 0 && (
                      <select
                        aria-label={t('projects.moveTo')}
                        value={a.project_id ?? ''}
                        onChange={(e) => e.target.value && move.mutate({ project: e.target.value, id: a.id })}
                        className="h-8 rounded-md border border-border bg-surface px-2 text-sm"
                      >
                        <option value="">{t('projects.moveTo')}</option>
                        {list.map((p) => (
                          <option key={p.id} value={p.id}>
                            {p.name}
                          </option>
                        ))}
                      </select>
                    )}
                    <AlignmentActions alignment={a} />
                  </li>
                ))}
              </ul>
            )}
            {alignments.data && (alignments.data.next !== null || alignments.data.previous !== null) && (
              <div className="mt-4 flex justify-between">
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={alignments.data.previous === null}
                  onClick={() => setPage((p) => p - 1)}
                >
                  {t('projects.previous')}
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={alignments.data.next === null}
                  onClick={() => setPage((p) => p + 1)}
                >
                  {t('projects.next')}
                </Button>
              </div>
            )}
          </div>
        </Card>
      </div>
    </div>
  );
}
