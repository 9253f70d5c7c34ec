import { queryOptions, useQuery } from '@tanstack/react-query';
import { PublicStats } from '@tazamun/contracts/alignments';
import { api } from '../../../lib/api-client.ts';

export const PUBLIC_STATS_KEY = ['stats', 'public'] as const;

export function getPublicStats(signal?: AbortSignal) {
  return api('/api/stats/public/', { schema: PublicStats, signal, auth: false });
}

export const publicStatsQueryOptions = () =>
  queryOptions({
    queryKey: PUBLIC_STATS_KEY,
    queryFn: ({ signal }) => getPublicStats(signal),
    staleTime: 60_000,
    retry: false,
  });

export function usePublicStats() {
  return useQuery(publicStatsQueryOptions());
}
