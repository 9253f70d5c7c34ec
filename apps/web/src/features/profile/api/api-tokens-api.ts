import { ApiTokenCreated } from '@tazamun/contracts/api-tokens';
import type { ApiTokenCreate } from '@tazamun/contracts/api-tokens';
import type { QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/react-query.ts';
import type { MutationConfig } from '../../../lib/react-query.ts';
import { API_TOKENS_KEY } from './get-api-tokens.ts';

export function createApiToken(body: ApiTokenCreate) {
  return api('/api/auth/tokens/', { method: 'POST', body, schema: ApiTokenCreated });
}

export function revokeApiToken(id: string) {
  return api(`/api/auth/tokens/${encodeURIComponent(id)}/`, { method: 'DELETE' });
}

const refreshTokens = (queryClient: QueryClient) =>
  void queryClient.invalidateQueries({ queryKey: API_TOKENS_KEY });

export function useCreateApiToken(config?: MutationConfig<z.infer<typeof ApiTokenCreated>, ApiTokenCreate>) {
  return useRefreshingMutation(createApiToken, refreshTokens, config);
}

export function useRevokeApiToken(config?: MutationConfig<unknown, string>) {
  return useRefreshingMutation(revokeApiToken, refreshTokens, config);
}
