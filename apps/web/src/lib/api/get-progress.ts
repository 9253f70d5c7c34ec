// The progress of a running alignment, one way: the server's event stream (GET …/events/) writes each
// update into the query cache as it happens; polling every second is only the fallback, for a browser
// without EventSource or a stream the server refused or closed (an expired token, a proxy that buffers).
// Read by the results page; its key lives here because the shared alignment actions
// (components/alignment) refresh and cancel it.
import { useEffect, useState } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { Progress } from '@tazamun/contracts/alignments';
import { api, apiUrl } from '../api-client.ts';
import { i18n } from '../i18n.ts';
import { getAccessToken } from '../token-storage.ts';

const POLL_MS = 1000;

export const progressQueryKey = (id: string) => ['alignment-progress', id] as const;

export function getProgress(id: string, signal?: AbortSignal) {
  return api(`/api/alignments/${encodeURIComponent(id)}/progress/`, { schema: Progress, signal });
}

export const progressQueryOptions = (id: string) =>
  queryOptions({
    queryKey: progressQueryKey(id),
    queryFn: ({ signal }) => getProgress(id, signal),
  });

/** Follows the stream while `enabled`; true while it is the source of updates. */
function useProgressStream(id: string, enabled: boolean): boolean {
  const queryClient = useQueryClient();
  const [failed, setFailed] = useState(false);
  const token = getAccessToken();
  const supported = typeof EventSource !== 'undefined' && token !== null;
  useEffect(() => {
    if (!enabled || failed || !supported || token === null) return;
    const query = new URLSearchParams({ access_token: token, lang: i18n.language });
    const source = new EventSource(apiUrl(`/api/alignments/${encodeURIComponent(id)}/events/?${query}`));
    const take = (event: MessageEvent<string>): void => {
      const parsed = Progress.safeParse(JSON.parse(event.data));
      // a deleted alignment ends its stream with a status the contract does not know: polling says 404
      if (parsed.success) queryClient.setQueryData(progressQueryKey(id), parsed.data);
      else setFailed(true);
    };
    source.addEventListener('progress', take);
    source.addEventListener('end', (event) => {
      take(event);
      source.close();
    });
    // EventSource reconnects by itself after a dropped connection; CLOSED means it gave up
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) setFailed(true);
    };
    return () => source.close();
  }, [id, enabled, failed, supported, token, queryClient]);
  return enabled && supported && !failed;
}

export function useAlignmentProgress(id: string, running: boolean) {
  const streaming = useProgressStream(id, running);
  return useQuery({
    ...progressQueryOptions(id),
    enabled: running,
    // one read when the page opens; after that the stream brings each change
    refetchInterval: streaming ? false : POLL_MS,
  });
}
