// Public settings of this deployment (GET /api/config/): parent organisation, support mailbox.
import { useQuery } from '@tanstack/react-query';
import { PublicConfig } from '@tazamun/contracts/auth';
import { api } from './api-client.ts';

export function usePublicConfig() {
  return useQuery({
    queryKey: ['config'],
    queryFn: ({ signal }) => api('/api/config/', { schema: PublicConfig, signal, auth: false }),
    staleTime: Infinity,
    retry: 1,
  });
}

export type HealthState = 'checking' | 'ok' | 'down';

export function useHealth(): HealthState {
  const query = useQuery({
    queryKey: ['health'],
    queryFn: ({ signal }) => api('/api/health/', { signal, auth: false }),
    refetchInterval: 60_000,
    retry: false,
  });
  if (query.isPending) return 'checking';
  return query.isSuccess ? 'ok' : 'down';
}
