import { queryOptions, useQuery } from '@tanstack/react-query';
import { LexiconList } from '@tazamun/contracts/lexicon';
import { api } from '../../../lib/api-client.ts';

/** Every list of the lexicon (all languages, one language) sits under this key. */
export const LEXICON_KEY = ['lexicon'] as const;

/** The whole lexicon: the page filters by language and text itself (at most 5000 entries). */
export function getLexicon(signal?: AbortSignal) {
  return api('/api/lexicon/', { schema: LexiconList, signal });
}

export const lexiconQueryOptions = () =>
  queryOptions({ queryKey: LEXICON_KEY, queryFn: ({ signal }) => getLexicon(signal) });

export function useLexicon() {
  return useQuery(lexiconQueryOptions());
}
