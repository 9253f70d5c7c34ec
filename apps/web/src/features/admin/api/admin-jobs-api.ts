import { AdminJobAction } from '@tazamun/contracts/admin-jobs';
import { api } from '../../../lib/api-client.ts';

export function retryJob(id: string) {
  return api(`/api/admin/jobs/${encodeURIComponent(id)}/retry/`, { method: 'POST', schema: AdminJobAction });
}

export function cancelJob(id: string) {
  return api(`/api/admin/jobs/${encodeURIComponent(id)}/cancel/`, { method: 'POST', schema: AdminJobAction });
}
