import { ApiTokenCreated, ApiTokenList } from '@tazamun/contracts/api-tokens';
import type { ApiTokenCreate } from '@tazamun/contracts/api-tokens';
import { api } from '../../../lib/api-client.ts';

export const API_TOKENS_KEY = ['auth', 'tokens'] as const;

export function listApiTokens(signal?: AbortSignal) {
  return api('/api/auth/tokens/', { schema: ApiTokenList, signal });
}

export function createApiToken(body: ApiTokenCreate) {
  return api('/api/auth/tokens/', { method: 'POST', body, schema: ApiTokenCreated });
}

export function revokeApiToken(id: string) {
  return api(`/api/auth/tokens/${encodeURIComponent(id)}/`, { method: 'DELETE' });
}
