// The languages an alignment can be made in (the upload page, the shared language picker).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { LanguagesResponse } from '@tazamun/contracts/alignments';
import { api, isClientError } from '../api-client.ts';

export const LANGUAGES_KEY = ['languages'] as const;

export function getLanguages(signal?: AbortSignal) {
  return api('/api/languages/', { schema: LanguagesResponse, signal, auth: false });
}

export const languagesQueryOptions = () =>
  queryOptions({
    queryKey: LANGUAGES_KEY,
    queryFn: ({ signal }) => getLanguages(signal),
    staleTime: Infinity,
    // The upload page cannot start a job without the list, and a busy server or a dropped connection is
    // usually over within a minute: network errors and 5xx are retried six times (1, 2, 4, 8, 16, 30 s)
    // rather than once, then the picker says so and offers to try again.
    retry: (count, error) => count < 6 && !isClientError(error),
    retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 30_000),
  });

export function useLanguages() {
  return useQuery(languagesQueryOptions());
}
