import { LexiconEntry, LexiconImportResult } from '@tazamun/contracts/lexicon';
import { api } from '../../../lib/api-client.ts';

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
