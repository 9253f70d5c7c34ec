// The languages an alignment can be made in (the upload page, the shared language picker).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { LanguagesResponse } from '@tazamun/contracts/alignments';
import { api } from '../api-client.ts';

export const LANGUAGES_KEY = ['languages'] as const;

export function getLanguages(signal?: AbortSignal) {
  return api('/api/languages/', { schema: LanguagesResponse, signal, auth: false });
}

export const languagesQueryOptions = () =>
  queryOptions({
    queryKey: LANGUAGES_KEY,
    queryFn: ({ signal }) => getLanguages(signal),
    staleTime: Infinity,
  });

export function useLanguages() {
  return useQuery(languagesQueryOptions());
}
