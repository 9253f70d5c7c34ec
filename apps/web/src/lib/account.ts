// Account figures shown on several screens (dashboard, profile).
import { useQuery } from '@tanstack/react-query';
import { Stats } from '@tazamun/contracts/auth';
import { api } from './api-client.ts';

export function useStats() {
  return useQuery({
    queryKey: ['auth', 'stats'],
    queryFn: ({ signal }) => api('/api/auth/stats/', { schema: Stats, signal }),
    staleTime: 30_000,
  });
}
