import { LexiconEntry, LexiconImportResult } from '@tazamun/contracts/lexicon';
import type { z } from 'zod';
import type { QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/react-query.ts';
import type { MutationConfig } from '../../../lib/react-query.ts';
import { LEXICON_KEY } from './get-lexicon.ts';

/** Adds a word, or replaces its pronunciation (the server keys entries by language and word). */
export function saveEntry(body: { language: string; word: string; ipa: string }) {
  return api('/api/lexicon/', { method: 'POST', body, schema: LexiconEntry });
}

export function deleteEntry(id: string) {
  return api(`/api/lexicon/${encodeURIComponent(id)}/`, { method: 'DELETE' });
}

/** An MFA dictionary (word, tab, phones) added to one language. */
function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsText(file, 'utf-8');
  });
}

export async function importDictionary(language: string, file: Blob) {
  return api(`/api/lexicon/import/?language=${encodeURIComponent(language)}`, {
    method: 'POST',
    body: await readText(file),
    contentType: 'text/tab-separated-values',
    schema: LexiconImportResult,
  });
}

export function exportDictionary(language: string): Promise<Blob> {
  return api<Blob>(`/api/lexicon/export/?language=${encodeURIComponent(language)}`, { responseType: 'blob' });
}

type Entry = z.infer<typeof LexiconEntry>;
type ImportResult = z.infer<typeof LexiconImportResult>;

const refreshLexicon = (queryClient: QueryClient) =>
  void queryClient.invalidateQueries({ queryKey: LEXICON_KEY });

export function useSaveEntry(
  config?: MutationConfig<Entry, { language: string; word: string; ipa: string }>,
) {
  return useRefreshingMutation(saveEntry, refreshLexicon, config);
}

export function useDeleteEntry(config?: MutationConfig<unknown, string>) {
  return useRefreshingMutation(deleteEntry, refreshLexicon, config);
}

export function useImportDictionary(language: string, config?: MutationConfig<ImportResult, File>) {
  return useRefreshingMutation((file: File) => importDictionary(language, file), refreshLexicon, config);
}

export function useExportDictionary(language: string, config?: MutationConfig<Blob>) {
  return useRefreshingMutation(() => exportDictionary(language), null, config);
}
