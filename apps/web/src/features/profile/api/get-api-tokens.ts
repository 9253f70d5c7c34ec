import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiTokenList } from '@tazamun/contracts/api-tokens';
import { api } from '../../../lib/api-client.ts';

export const API_TOKENS_KEY = ['auth', 'tokens'] as const;

export function getApiTokens(signal?: AbortSignal) {
  return api('/api/auth/tokens/', { schema: ApiTokenList, signal });
}

export const apiTokensQueryOptions = () =>
  queryOptions({
    queryKey: API_TOKENS_KEY,
    queryFn: ({ signal }) => getApiTokens(signal),
  });

export function useApiTokens() {
  return useQuery(apiTokensQueryOptions());
}
