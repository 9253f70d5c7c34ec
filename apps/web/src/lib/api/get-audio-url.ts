// The signed URL the player streams from, without an Authorization header (valid for an hour). Its key
// lives here because the shared delete action (components/alignment) cancels it.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { AudioUrlResponse } from '@tazamun/contracts/alignments';
import { api, apiUrl } from '../api-client.ts';

// Keep a little margin so a URL handed to the player is never one that is about to lapse.
const AUDIO_URL_MARGIN_MS = 5 * 60_000;

export const audioUrlQueryKey = (id: string) => ['alignment-audio-url', id] as const;

export function getAudioUrl(id: string, signal?: AbortSignal) {
  return api(`/api/alignments/${encodeURIComponent(id)}/audio-url/`, { schema: AudioUrlResponse, signal });
}

export const audioUrlQueryOptions = (id: string) =>
  queryOptions({
    queryKey: audioUrlQueryKey(id),
    queryFn: ({ signal }) => getAudioUrl(id, signal),
    // No background refetch: a new URL would restart the player mid-listen. A page opened after the
    // URL lapsed asks for a new one.
    staleTime: (query) =>
      query.state.data
        ? Math.max(0, Date.parse(query.state.data.expires_at) - Date.now() - AUDIO_URL_MARGIN_MS)
        : 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

/** The address the player streams from, null until there is one. */
export function useAudioUrl(id: string, enabled: boolean): string | null {
  const audio = useQuery({ ...audioUrlQueryOptions(id), enabled });
  return audio.data ? apiUrl(audio.data.url) : null;
}
