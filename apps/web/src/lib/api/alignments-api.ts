// Managing one alignment from any screen that lists it (results page, projects, profile).
import { AlignmentSummary } from '@tazamun/contracts/alignments';
import type { QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../api-client.ts';
import { useRefreshingMutation } from '../react-query.ts';
import type { MutationConfig } from '../react-query.ts';
import { alignmentQueryKey } from './get-alignment.ts';
import { ALIGNMENTS_KEY } from './get-alignments.ts';
import { audioUrlQueryKey } from './get-audio-url.ts';
import { progressQueryKey } from './get-progress.ts';
import { PROJECTS_KEY } from './get-projects.ts';
import { PROFILE_QUERY_KEY } from './get-user.ts';
import { videoQueryKey } from './get-video.ts';

export function renameAlignment(id: string, title: string) {
  return api(`/api/alignments/${encodeURIComponent(id)}/`, {
    method: 'PATCH',
    body: { title },
    schema: AlignmentSummary,
  });
}

export function deleteAlignment(id: string) {
  return api<void>(`/api/alignments/${encodeURIComponent(id)}/`, { method: 'DELETE' });
}

export function retryAlignment(id: string) {
  return api(`/api/alignments/${encodeURIComponent(id)}/retry/`, {
    method: 'POST',
    schema: AlignmentSummary,
  });
}

type Summary = z.infer<typeof AlignmentSummary>;

/** The lists (alignments, projects) and the profile's figures count every alignment. */
function refreshLists(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: ALIGNMENTS_KEY });
  void queryClient.invalidateQueries({ queryKey: PROJECTS_KEY });
  void queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
}

/** The alignment changed: its detail, its progress and every list that shows it. */
function refreshAlignment(queryClient: QueryClient, id: string): void {
  void queryClient.invalidateQueries({ queryKey: alignmentQueryKey(id) });
  void queryClient.invalidateQueries({ queryKey: progressQueryKey(id) });
  refreshLists(queryClient);
}

export function useRenameAlignment(id: string, config?: MutationConfig<Summary, string>) {
  return useRefreshingMutation(
    (title: string) => renameAlignment(id, title),
    (qc) => refreshAlignment(qc, id),
    config,
  );
}

export function useRetryAlignment(id: string, config?: MutationConfig<Summary>) {
  return useRefreshingMutation(
    () => retryAlignment(id),
    (qc) => refreshAlignment(qc, id),
    config,
  );
}

/**
 * After a delete: stop whatever is in flight for that alignment and refresh the lists. Its own queries
 * are left to expire unused (never invalidated, never removed): a query removed while the page that
 * reads it is still mounted (the router keeps it during the navigation) is rebuilt, fetched and 404s.
 */
export function useDeleteAlignment(id: string, config?: MutationConfig<void>) {
  return useRefreshingMutation(
    () => deleteAlignment(id),
    (queryClient) => {
      for (const key of [
        alignmentQueryKey(id),
        progressQueryKey(id),
        audioUrlQueryKey(id),
        videoQueryKey(id),
      ])
        void queryClient.cancelQueries({ queryKey: key });
      refreshLists(queryClient);
    },
    config,
  );
}
