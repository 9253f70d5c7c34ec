import { queryOptions, useQuery } from '@tanstack/react-query';
import { RealignStatus } from '@tazamun/contracts/revisions';
import { api } from '../../../lib/api-client.ts';

export const realignmentQueryKey = (id: string) => ['alignment-realignment', id] as const;

/** The latest re-alignment of a stretch, or null when there was none (404). */
export async function getRealignment(id: string, signal?: AbortSignal) {
  try {
    return await api(`/api/alignments/${encodeURIComponent(id)}/realign/`, { schema: RealignStatus, signal });
  } catch (err) {
    if (err instanceof Error && 'status' in err && err.status === 404) return null;
    throw err;
  }
}

export const realignmentQueryOptions = (id: string) =>
  queryOptions({
    queryKey: realignmentQueryKey(id),
    queryFn: ({ signal }) => getRealignment(id, signal),
    // followed while it runs
    refetchInterval: (q) =>
      q.state.data && (q.state.data.status === 'queued' || q.state.data.status === 'processing')
        ? 1000
        : false,
  });

/** Asked only once a re-alignment was requested here (`enabled`). */
export function useRealignment(id: string, enabled: boolean) {
  return useQuery({ ...realignmentQueryOptions(id), enabled });
}
