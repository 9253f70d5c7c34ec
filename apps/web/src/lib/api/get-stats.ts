// Account figures shown on several screens (dashboard, profile).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Stats } from '@tazamun/contracts/auth';
import { api } from '../api-client.ts';

export const STATS_KEY = ['auth', 'stats'] as const;

export function getStats(signal?: AbortSignal) {
  return api('/api/auth/stats/', { schema: Stats, signal });
}

export const statsQueryOptions = () =>
  queryOptions({
    queryKey: STATS_KEY,
    queryFn: ({ signal }) => getStats(signal),
    staleTime: 30_000,
  });

export function useStats() {
  return useQuery(statsQueryOptions());
}
