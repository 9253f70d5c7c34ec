// The status of an alignment's rendered video. Its key lives here because the shared delete action
// (components/alignment) cancels it.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { VideoStatus } from '@tazamun/contracts/exports';
import { api } from '../api-client.ts';

export const videoQueryKey = (id: string) => ['video', id] as const;

export function getVideo(id: string, signal?: AbortSignal) {
  return api(`/api/alignments/${encodeURIComponent(id)}/video/`, { schema: VideoStatus, signal });
}

export const videoQueryOptions = (id: string) =>
  queryOptions({
    queryKey: videoQueryKey(id),
    // no video yet is a 404: nothing to show rather than an error
    queryFn: ({ signal }) => getVideo(id, signal).catch(() => null),
    // followed while it renders
    refetchInterval: (q) =>
      q.state.data && ['queued', 'processing'].includes(q.state.data.status) ? 1500 : false,
  });

/** Asked only when `enabled`: before a render was requested the server has no video. */
export function useVideo(id: string, enabled: boolean) {
  return useQuery({ ...videoQueryOptions(id), enabled });
}
