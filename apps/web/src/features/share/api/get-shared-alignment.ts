import { queryOptions, useQuery } from '@tanstack/react-query';
import { SharedAlignment } from '@tazamun/contracts/alignments';
import { api } from '../../../lib/api-client.ts';

export const sharedAlignmentQueryKey = (token: string) => ['share', token] as const;

export function getSharedAlignment(token: string, signal?: AbortSignal) {
  return api(`/api/share/${encodeURIComponent(token)}/`, { schema: SharedAlignment, signal, auth: false });
}

export const sharedAlignmentQueryOptions = (token: string) =>
  queryOptions({
    queryKey: sharedAlignmentQueryKey(token),
    queryFn: ({ signal }) => getSharedAlignment(token, signal),
    // an unknown or withdrawn link (404) is said at once, not after retries
    retry: false,
  });

export function useSharedAlignment(token: string) {
  return useQuery(sharedAlignmentQueryOptions(token));
}
