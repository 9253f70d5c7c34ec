import { AlignmentDetail, AlignmentSummary, AudioUrlResponse, Progress } from '@tazamun/contracts/alignments';
import { VideoStatus } from '@tazamun/contracts/exports';
import type { VideoRequest } from '@tazamun/contracts/exports';
import { api } from '../../../lib/api-client.ts';

export function uploadAlignment(form: FormData) {
  return api('/api/alignments/', { method: 'POST', body: form, schema: AlignmentSummary });
}

export { alignmentQueryKey } from '../../../lib/alignments.ts';

export function getAlignment(id: string, signal?: AbortSignal) {
  return api(`/api/alignments/${encodeURIComponent(id)}/`, { schema: AlignmentDetail, signal });
}

export function getProgress(id: string, signal?: AbortSignal) {
  return api(`/api/alignments/${encodeURIComponent(id)}/progress/`, { schema: Progress, signal });
}

export function cancelAlignment(id: string) {
  return api(`/api/alignments/${encodeURIComponent(id)}/cancel/`, {
    method: 'POST',
    schema: AlignmentSummary,
  });
}

/** A signed audio URL the player streams without an Authorization header (valid for an hour). */
export function getAudioUrl(id: string, signal?: AbortSignal) {
  return api(`/api/alignments/${encodeURIComponent(id)}/audio-url/`, { schema: AudioUrlResponse, signal });
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

export function getVideo(id: string, signal?: AbortSignal) {
  return api(`/api/alignments/${encodeURIComponent(id)}/video/`, { schema: VideoStatus, signal });
}

export function downloadVideo(id: string): Promise<Blob> {
  return api<Blob>(`/api/alignments/${encodeURIComponent(id)}/video/file/`, { responseType: 'blob' });
}
