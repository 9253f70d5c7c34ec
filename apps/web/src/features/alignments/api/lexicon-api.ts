import { LexiconEntry, PronunciationPreview } from '@tazamun/contracts/lexicon';
import { api } from '../../../lib/api-client.ts';

export function previewPronunciations(body: { language: string; text: string }) {
  return api('/api/lexicon/preview/', { method: 'POST', body, schema: PronunciationPreview });
}

export function addLexiconEntry(body: { language: string; word: string; ipa: string }) {
  return api('/api/lexicon/', { method: 'POST', body, schema: LexiconEntry });
}
