import { queryOptions, useQuery } from '@tanstack/react-query';
import { SessionList } from '@tazamun/contracts/auth';
import { api } from '../../../lib/api-client.ts';

export const SESSIONS_KEY = ['auth', 'sessions'] as const;

export function getSessions(signal?: AbortSignal) {
  return api('/api/auth/sessions/', { schema: SessionList, signal });
}

export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: SESSIONS_KEY,
    queryFn: ({ signal }) => getSessions(signal),
  });

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}
