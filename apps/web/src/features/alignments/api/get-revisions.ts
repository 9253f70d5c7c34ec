import { queryOptions, useQuery } from '@tanstack/react-query';
import { RevisionList } from '@tazamun/contracts/revisions';
import { api } from '../../../lib/api-client.ts';

export const revisionsQueryKey = (id: string) => ['alignment-revisions', id] as const;

export function getRevisions(id: string, signal?: AbortSignal) {
  return api(`/api/alignments/${encodeURIComponent(id)}/revisions/`, { schema: RevisionList, signal });
}

export const revisionsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: revisionsQueryKey(id),
    queryFn: ({ signal }) => getRevisions(id, signal),
  });

export function useRevisions(id: string) {
  return useQuery(revisionsQueryOptions(id));
}
