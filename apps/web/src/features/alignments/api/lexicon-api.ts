import { LexiconEntry, PronunciationPreview } from '@tazamun/contracts/lexicon';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/react-query.ts';
import type { MutationConfig } from '../../../lib/react-query.ts';

export function previewPronunciations(body: { language: string; text: string }) {
  return api('/api/lexicon/preview/', { method: 'POST', body, schema: PronunciationPreview });
}

export function addLexiconEntry(body: { language: string; word: string; ipa: string }) {
  return api('/api/lexicon/', { method: 'POST', body, schema: LexiconEntry });
}

export function usePreviewPronunciations(
  config?: MutationConfig<z.infer<typeof PronunciationPreview>, { language: string; text: string }>,
) {
  return useRefreshingMutation(previewPronunciations, null, config);
}

/** The lexicon page reads its list when it opens: nothing cached here goes stale. */
export function useAddLexiconEntry(
  config?: MutationConfig<z.infer<typeof LexiconEntry>, { language: string; word: string; ipa: string }>,
) {
  return useRefreshingMutation(addLexiconEntry, null, config);
}
