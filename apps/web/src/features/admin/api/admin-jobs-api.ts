import { useQuery } from '@tanstack/react-query';
import { AdminJobAction, AdminJobList } from '@tazamun/contracts/admin-jobs';
import type { AdminJobStatus } from '@tazamun/contracts/admin-jobs';
import { api } from '../../../lib/api-client.ts';

/** Every admin job list (open, failed, …) sits under this key. */
export const ADMIN_JOBS_KEY = ['admin-jobs'] as const;

/** undefined: the jobs that need an eye (waiting, running, failed), as the API lists by default. */
export function useAdminJobs(status: AdminJobStatus | undefined, enabled: boolean) {
  return useQuery({
    queryKey: [...ADMIN_JOBS_KEY, status ?? 'open'],
    queryFn: ({ signal }) =>
      api(`/api/admin/jobs/${status ? `?status=${status}` : ''}`, { schema: AdminJobList, signal }),
    enabled,
    // a running job's worker and attempts move on their own
    refetchInterval: 5000,
  });
}

export function retryJob(id: string) {
  return api(`/api/admin/jobs/${encodeURIComponent(id)}/retry/`, { method: 'POST', schema: AdminJobAction });
}

export function cancelJob(id: string) {
  return api(`/api/admin/jobs/${encodeURIComponent(id)}/cancel/`, { method: 'POST', schema: AdminJobAction });
}
