// The lists of alignments (dashboard, profile, projects, the upload page's estimate). Shared by several
// features, so it lives here rather than in one of them.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { AlignmentListResponse } from '@tazamun/contracts/alignments';
import { api } from '../api-client.ts';

/** Every list of alignments sits under this key: invalidating it refreshes them all. */
export const ALIGNMENTS_KEY = ['alignments'] as const;

export interface AlignmentListParams {
  page?: number;
  page_size?: number;
  project?: string;
  q?: string;
  status?: string;
}

/** Statuses of a recording that will still change by themselves. */
const ACTIVE = new Set(['queued', 'processing']);
/** How often a list with such a recording is read again (ms). */
export const LIST_POLL_MS = 3000;

export const alignmentListKey = (params: AlignmentListParams) => [...ALIGNMENTS_KEY, 'list', params] as const;

export function getAlignments(params: AlignmentListParams, signal?: AbortSignal) {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') search.set(k, String(v));
  return api(`/api/alignments/?${search.toString()}`, { schema: AlignmentListResponse, signal });
}

export const alignmentListQueryOptions = (params: AlignmentListParams) =>
  queryOptions({
    queryKey: alignmentListKey(params),
    queryFn: ({ signal }) => getAlignments(params, signal),
    staleTime: 10_000,
    // followed while a listed recording is still waiting or aligning, so its status changes on the page
    // without a reload (a project's list after a zip's batch, the dashboard after an upload)
    refetchInterval: (q) => (q.state.data?.results.some((a) => ACTIVE.has(a.status)) ? LIST_POLL_MS : false),
  });

export function useAlignmentList(params: AlignmentListParams) {
  return useQuery(alignmentListQueryOptions(params));
}
