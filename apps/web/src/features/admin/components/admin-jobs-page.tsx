// Job administration for administrators (the API refuses anyone else): waiting, running and failed jobs
// with the engine's error, the worker, attempts and timings; retry a failed job, cancel a queued or
// running one. Same actions as `npm run admin -- jobs | retry-job | cancel-job`.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { AdminJob, AdminJobStatus } from '@tazamun/contracts/admin-jobs';
import { useUser } from '../../../lib/api/get-user.ts';
import { useLanguageName } from '../../../lib/use-language-name.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card } from '../../../components/ui/card.tsx';
import { toast } from '../../../stores/ui-store.ts';
import { useCancelJob, useRetryJob } from '../api/admin-jobs-api.ts';
import { ADMIN_JOBS_KEY, useAdminJobs } from '../api/get-admin-jobs.ts';
import { Sep } from '../../../components/ui/separator.tsx';

const FILTERS = ['open', 'queued', 'processing', 'failed', 'completed', 'cancelled'] as const;
type Filter = (typeof FILTERS)[number];

function when(iso: string | null): string {
  return iso ? iso.replace('T', ' ').slice(0, 19) : '–';
}

export function AdminJobsPage() {
  const { t } = useTranslation();
  const { user } = useUser();
  const isAdmin = user?.role === 'admin';
  const [filter, setFilter] = useState<Filter>('open');
  const status: AdminJobStatus | undefined = filter === 'open' ? undefined : filter;
  const jobs = useAdminJobs(status, isAdmin);
  const languageName = useLanguageName();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ADMIN_JOBS_KEY });
  const retry = useRetryJob({
    onSuccess: () => toast.success(t('adminJobs.retried')),
    onError: (e) => toast.error(e.message),
  });
  const cancel = useCancelJob({
    onSuccess: (r) =>
      toast.success(t(r.result === 'requested' ? 'adminJobs.cancelRequested' : 'adminJobs.cancelled')),
    onError: (e) => toast.error(e.message),
  });

  if (!user) return null;
  if (!isAdmin)
    return (
      <div className="mx-auto max-w-xl px-4 py-16">
        <Alert tone="danger">{t('adminJobs.adminOnly')}</Alert>
      </div>
    );
  const rows: AdminJob[] = jobs.data?.jobs ?? [];
  return (
    <div className="mx-auto max-w-7xl px-4 py-10">
      <h1 className="text-2xl font-semibold">{t('adminJobs.title')}</h1>
      <p className="mt-1 text-muted">{t('adminJobs.subtitle')}</p>
      <div className="mt-6 flex flex-wrap gap-2" role="group" aria-label={t('adminJobs.columns.status')}>
        {FILTERS.map((f) => (
          <Button
            key={f}
            size="sm"
            variant={f === filter ? 'primary' : 'secondary'}
            aria-pressed={f === filter}
            onClick={() => setFilter(f)}
          >
            {t(`adminJobs.filters.${f}`)}
          </Button>
        ))}
        <Button size="sm" variant="ghost" onClick={refresh}>
          {t('adminJobs.refresh')}
        </Button>
      </div>
      {jobs.isError && (
        <div className="mt-4">
          <Alert tone="danger">{jobs.error.message}</Alert>
        </div>
      )}
      <Card className="scroll-cue-x scroll-cue-surface mt-4 overflow-x-auto p-0">
        {jobs.isPending ? (
          <p className="p-6 text-muted">{t('common.loading')}</p>
        ) : rows.length === 0 ? (
          <p className="p-6 text-muted">{t('adminJobs.empty')}</p>
        ) : (
          <table className="w-full text-start text-sm">
            <thead className="bg-surface-2 text-muted">
              <tr>
                {(
                  ['status', 'alignment', 'user', 'attempts', 'worker', 'error', 'times', 'actions'] as const
                ).map((c) => (
                  <th key={c} scope="col" className="px-3 py-2 text-start font-medium">
                    {t(`adminJobs.columns.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((job) => (
                <tr key={job.id} className="border-t border-border align-top" data-testid={`job-${job.id}`}>
                  <td className="px-3 py-2">{t(`adminJobs.filters.${job.status}`)}</td>
                  <td className="px-3 py-2">
                    <div className="font-medium">{job.title ?? job.alignment_id}</div>
                    <div className="text-xs text-muted">
                      {t(`adminJobs.kinds.${job.kind}`)}
                      <Sep />
                      {job.language ? languageName(job.language) : '–'}
                    </div>
                  </td>
                  <td className="px-3 py-2" dir="ltr">
                    {job.user_email ?? '–'}
                  </td>
                  <td className="px-3 py-2" dir="ltr">
                    {job.attempts}/{job.max_attempts}
                  </td>
                  <td className="px-3 py-2 text-xs" dir="ltr">
                    {job.worker_id ?? '–'}
                  </td>
                  <td className="px-3 py-2 text-xs" dir="ltr">
                    {job.error_code && <div className="font-medium">{job.error_code}</div>}
                    {job.last_error && <div className="text-muted">{job.last_error}</div>}
                  </td>
                  <td className="px-3 py-2 text-xs whitespace-nowrap" dir="ltr">
                    {when(job.created_at)}
                    <br />
                    {when(job.started_at)}
                    <br />
                    {when(job.finished_at)}
                  </td>
                  <td className="px-3 py-2">
                    {job.status === 'failed' && (
                      <Button size="sm" disabled={retry.isPending} onClick={() => retry.mutate(job.id)}>
                        {t('adminJobs.retry')}
                      </Button>
                    )}
                    {(job.status === 'queued' || job.status === 'processing') && (
                      <Button
                        size="sm"
                        variant="danger"
                        disabled={cancel.isPending}
                        onClick={() => cancel.mutate(job.id)}
                      >
                        {t('adminJobs.cancel')}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </div>
  );
}
