import { AdminJobAction } from '@tazamun/contracts/admin-jobs';
import type { QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/react-query.ts';
import type { MutationConfig } from '../../../lib/react-query.ts';
import { ADMIN_JOBS_KEY } from './get-admin-jobs.ts';

export function retryJob(id: string) {
  return api(`/api/admin/jobs/${encodeURIComponent(id)}/retry/`, { method: 'POST', schema: AdminJobAction });
}

export function cancelJob(id: string) {
  return api(`/api/admin/jobs/${encodeURIComponent(id)}/cancel/`, { method: 'POST', schema: AdminJobAction });
}

type JobAction = Awaited<ReturnType<typeof retryJob>>;

const refreshJobs = (queryClient: QueryClient) =>
  void queryClient.invalidateQueries({ queryKey: ADMIN_JOBS_KEY });

export function useRetryJob(config?: MutationConfig<JobAction, string>) {
  return useRefreshingMutation(retryJob, refreshJobs, config);
}

export function useCancelJob(config?: MutationConfig<JobAction, string>) {
  return useRefreshingMutation(cancelJob, refreshJobs, config);
}
