// Managing one alignment from any screen that lists it (results page, projects, profile).
import { AlignmentSummary } from '@tazamun/contracts/alignments';
import { api } from '../api-client.ts';

export function renameAlignment(id: string, title: string) {
  return api(`/api/alignments/${encodeURIComponent(id)}/`, {
    method: 'PATCH',
    body: { title },
    schema: AlignmentSummary,
  });
}

export function deleteAlignment(id: string) {
  return api<void>(`/api/alignments/${encodeURIComponent(id)}/`, { method: 'DELETE' });
}

export function retryAlignment(id: string) {
  return api(`/api/alignments/${encodeURIComponent(id)}/retry/`, {
    method: 'POST',
    schema: AlignmentSummary,
  });
}
