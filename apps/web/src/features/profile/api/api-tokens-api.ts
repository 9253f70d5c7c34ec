import { ApiTokenCreated } from '@tazamun/contracts/api-tokens';
import type { ApiTokenCreate } from '@tazamun/contracts/api-tokens';
import { api } from '../../../lib/api-client.ts';

export function createApiToken(body: ApiTokenCreate) {
  return api('/api/auth/tokens/', { method: 'POST', body, schema: ApiTokenCreated });
}

export function revokeApiToken(id: string) {
  return api(`/api/auth/tokens/${encodeURIComponent(id)}/`, { method: 'DELETE' });
}
