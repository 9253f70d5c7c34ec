import { AlignmentSummary, ShareResponse } from '@tazamun/contracts/alignments';
import { VideoStatus } from '@tazamun/contracts/exports';
import type { VideoRequest } from '@tazamun/contracts/exports';
import { api } from '../../../lib/api-client.ts';

export function uploadAlignment(form: FormData) {
  return api('/api/alignments/', { method: 'POST', body: form, schema: AlignmentSummary });
}

export function cancelAlignment(id: string) {
  return api(`/api/alignments/${encodeURIComponent(id)}/cancel/`, {
    method: 'POST',
    schema: AlignmentSummary,
  });
}

/** A read-only link to the alignment that anyone can open. */
export function shareAlignment(id: string) {
  return api(`/api/alignments/${encodeURIComponent(id)}/share/`, { method: 'POST', schema: ShareResponse });
}

export function unshareAlignment(id: string) {
  return api(`/api/alignments/${encodeURIComponent(id)}/share/`, { method: 'DELETE' });
}

export function exportFile(id: string, format: string, options: Record<string, string>): Promise<Blob> {
  const query = new URLSearchParams(options).toString();
  return api<Blob>(`/api/alignments/${encodeURIComponent(id)}/export/${format}/?${query}`, {
    responseType: 'blob',
  });
}

export function requestVideo(id: string, body: Partial<VideoRequest>) {
  return api(`/api/alignments/${encodeURIComponent(id)}/video/`, {
    method: 'POST',
    body,
    schema: VideoStatus,
  });
}

export function downloadVideo(id: string): Promise<Blob> {
  return api<Blob>(`/api/alignments/${encodeURIComponent(id)}/video/file/`, { responseType: 'blob' });
}
