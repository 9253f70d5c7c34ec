import { queryOptions, useQuery } from '@tanstack/react-query';
import { AdminJobList } from '@tazamun/contracts/admin-jobs';
import type { AdminJobStatus } from '@tazamun/contracts/admin-jobs';
import { api } from '../../../lib/api-client.ts';

/** Every admin job list (open, failed, …) sits under this key. */
export const ADMIN_JOBS_KEY = ['admin-jobs'] as const;

/** undefined: the jobs that need an eye (waiting, running, failed), as the API lists by default. */
export const adminJobsQueryKey = (status: AdminJobStatus | undefined) =>
  [...ADMIN_JOBS_KEY, status ?? 'open'] as const;

export function getAdminJobs(status: AdminJobStatus | undefined, signal?: AbortSignal) {
  return api(`/api/admin/jobs/${status ? `?status=${status}` : ''}`, { schema: AdminJobList, signal });
}

export const adminJobsQueryOptions = (status: AdminJobStatus | undefined) =>
  queryOptions({
    queryKey: adminJobsQueryKey(status),
    queryFn: ({ signal }) => getAdminJobs(status, signal),
    // a running job's worker and attempts move on their own
    refetchInterval: 5000,
  });

export function useAdminJobs(status: AdminJobStatus | undefined, enabled: boolean) {
  return useQuery({ ...adminJobsQueryOptions(status), enabled });
}
