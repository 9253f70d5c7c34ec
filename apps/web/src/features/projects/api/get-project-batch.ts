// The recordings of one project, as the batch panel follows them. Under ALIGNMENTS_KEY, so refreshing
// the alignment lists refreshes this one too.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { AlignmentListResponse } from '@tazamun/contracts/alignments';
import { api } from '../../../lib/api-client.ts';
import { ALIGNMENTS_KEY } from '../../../lib/api/get-alignments.ts';

const ACTIVE = new Set(['queued', 'processing']);

export const projectBatchKey = (projectId: string) =>
  [...ALIGNMENTS_KEY, 'project-batch', projectId] as const;

export function getProjectBatch(projectId: string, signal?: AbortSignal) {
  const q = new URLSearchParams({ project: projectId, page_size: '100' });
  return api(`/api/alignments/?${q.toString()}`, { schema: AlignmentListResponse, signal });
}

export const projectBatchQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: projectBatchKey(projectId),
    queryFn: ({ signal }) => getProjectBatch(projectId, signal),
    // followed while any recording of the project is still waiting or aligning
    refetchInterval: (q) => (q.state.data?.results.some((a) => ACTIVE.has(a.status)) ? 2000 : false),
  });

export function useProjectBatch(projectId: string) {
  return useQuery(projectBatchQueryOptions(projectId));
}
