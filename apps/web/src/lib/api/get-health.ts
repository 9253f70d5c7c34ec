// Whether the API answers, for the footer's status dot.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client.ts';

export const HEALTH_KEY = ['health'] as const;

export function getHealth(signal?: AbortSignal) {
  return api('/api/health/', { signal, auth: false });
}

export const healthQueryOptions = () =>
  queryOptions({
    queryKey: HEALTH_KEY,
    queryFn: ({ signal }) => getHealth(signal),
    refetchInterval: 60_000,
    retry: false,
  });

export type HealthState = 'checking' | 'ok' | 'down';

export function useHealth(): HealthState {
  const query = useQuery(healthQueryOptions());
  if (query.isPending) return 'checking';
  return query.isSuccess ? 'ok' : 'down';
}
