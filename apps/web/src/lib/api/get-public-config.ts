// Public settings of this deployment (GET /api/config/): parent organisation, support mailbox, source.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { PublicConfig } from '@tazamun/contracts/auth';
import { api } from '../api-client.ts';

export const PUBLIC_CONFIG_KEY = ['config'] as const;

export function getPublicConfig(signal?: AbortSignal) {
  return api('/api/config/', { schema: PublicConfig, signal, auth: false });
}

export const publicConfigQueryOptions = () =>
  queryOptions({
    queryKey: PUBLIC_CONFIG_KEY,
    queryFn: ({ signal }) => getPublicConfig(signal),
    staleTime: Infinity,
    retry: 1,
  });

export function usePublicConfig() {
  return useQuery(publicConfigQueryOptions());
}
