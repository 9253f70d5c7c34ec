import { RealignStatus, RevisionCreated } from '@tazamun/contracts/revisions';
import type { RealignRequest, RevisionCreate } from '@tazamun/contracts/revisions';
import type { QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { alignmentQueryKey } from '../../../lib/api/get-alignment.ts';
import { useRefreshingMutation } from '../../../lib/react-query.ts';
import type { MutationConfig } from '../../../lib/react-query.ts';
import { realignmentQueryKey } from './get-realignment.ts';
import { revisionsQueryKey } from './get-revisions.ts';

export function saveRevision(id: string, body: RevisionCreate) {
  return api(`/api/alignments/${encodeURIComponent(id)}/revisions/`, {
    method: 'POST',
    body,
    schema: RevisionCreated,
  });
}

export function requestRealign(id: string, body: RealignRequest) {
  return api(`/api/alignments/${encodeURIComponent(id)}/realign/`, {
    method: 'POST',
    body,
    schema: RealignStatus,
  });
}

/** A revision made elsewhere (a stretch re-aligned, another tab): the result and the list are read again. */
export function refreshRevisions(queryClient: QueryClient, id: string): void {
  void queryClient.invalidateQueries({ queryKey: alignmentQueryKey(id) });
  void queryClient.invalidateQueries({ queryKey: revisionsQueryKey(id) });
}

/** The saved revision's result replaces the cached one; the list of revisions is read again. */
export function useSaveRevision(
  id: string,
  config?: MutationConfig<z.infer<typeof RevisionCreated>, RevisionCreate>,
) {
  return useRefreshingMutation(
    (body: RevisionCreate) => saveRevision(id, body),
    (queryClient, created) => {
      queryClient.setQueryData(alignmentQueryKey(id), (old: unknown) =>
        old && typeof old === 'object' ? { ...old, result: created.result } : old,
      );
      void queryClient.invalidateQueries({ queryKey: revisionsQueryKey(id) });
    },
    config,
  );
}

/** The request's status is the answer: the re-alignment query starts from it and follows the job. */
export function useRequestRealign(
  id: string,
  config?: MutationConfig<z.infer<typeof RealignStatus>, RealignRequest>,
) {
  return useRefreshingMutation(
    (body: RealignRequest) => requestRealign(id, body),
    (queryClient, status) => queryClient.setQueryData(realignmentQueryKey(id), status),
    config,
  );
}
