import { RealignStatus, RevisionCreated } from '@tazamun/contracts/revisions';
import type { RealignRequest, RevisionCreate } from '@tazamun/contracts/revisions';
import { api } from '../../../lib/api-client.ts';

export function saveRevision(id: string, body: RevisionCreate) {
  return api(`/api/alignments/${encodeURIComponent(id)}/revisions/`, {
    method: 'POST',
    body,
    schema: RevisionCreated,
  });
}

export function requestRealign(id: string, body: RealignRequest) {
  return api(`/api/alignments/${encodeURIComponent(id)}/realign/`, {
    method: 'POST',
    body,
    schema: RealignStatus,
  });
}
