// What the aligner would say for the lexicon's words without the user's entries (eSpeak, the Arabic
// rules, the model's dictionary): shown beside each entry, so the user sees what their entry replaces.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { PronunciationPreview } from '@tazamun/contracts/lexicon';
import { api } from '../../../lib/api-client.ts';

export const lexiconPreviewQueryKey = (language: string, words: string[]) =>
  ['lexicon-preview', language, words.join(' ')] as const;

export function getLexiconPreview(language: string, words: string[], signal?: AbortSignal) {
  return api('/api/lexicon/preview/', {
    method: 'POST',
    body: { language, text: words.join(' '), all_words: true, ignore_lexicon: true },
    schema: PronunciationPreview,
    signal,
  });
}

export const lexiconPreviewQueryOptions = (language: string, words: string[]) =>
  queryOptions({
    queryKey: lexiconPreviewQueryKey(language, words),
    queryFn: ({ signal }) => getLexiconPreview(language, words, signal),
    staleTime: Infinity,
  });

export function useLexiconPreview(language: string, words: string[]) {
  return useQuery({
    ...lexiconPreviewQueryOptions(language, words),
    enabled: words.length > 0 && /^[a-z]{3}$/.test(language),
    placeholderData: keepPreviousData,
  });
}
