// One alignment's detail. Read by the results page and the correction editor, refreshed by the shared
// rename/retry/delete actions (components/alignment), so its key lives here.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { AlignmentDetail } from '@tazamun/contracts/alignments';
import { api } from '../api-client.ts';

export const alignmentQueryKey = (id: string) => ['alignment', id] as const;

export function getAlignment(id: string, signal?: AbortSignal) {
  return api(`/api/alignments/${encodeURIComponent(id)}/`, { schema: AlignmentDetail, signal });
}

export const alignmentQueryOptions = (id: string) =>
  queryOptions({
    queryKey: alignmentQueryKey(id),
    queryFn: ({ signal }) => getAlignment(id, signal),
  });

export function useAlignment(id: string) {
  return useQuery(alignmentQueryOptions(id));
}
