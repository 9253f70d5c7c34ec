import { BatchResponse } from '@tazamun/contracts/projects';
import { api } from '../../../lib/api-client.ts';

/** A zip in MFA's layout, or loose files (a dropped folder) whose names carry their relative paths. */
export type BatchInput = { zip: File } | { files: { file: File; path: string }[] };

const AUDIO = /\.(wav|mp3|m4a|ogg|flac)$/i;

export function uploadBatch(projectId: string, language: string, input: BatchInput) {
  const form = new FormData();
  form.append('language', language);
  if ('zip' in input) form.append('archive', input.zip, input.zip.name);
  else
    for (const { file, path } of input.files)
      form.append(AUDIO.test(path) ? 'audio' : 'text_file', file, path);
  return api(`/api/projects/${encodeURIComponent(projectId)}/batch/`, {
    method: 'POST',
    body: form,
    schema: BatchResponse,
  });
}

export function downloadProjectExport(projectId: string, format: 'textgrid' | 'json' | 'csv'): Promise<Blob> {
  return api<Blob>(`/api/projects/${encodeURIComponent(projectId)}/export/${format}/`, {
    responseType: 'blob',
  });
}
