import { RevisionList } from '@tazamun/contracts/revisions';
import { api } from '../../../lib/api-client.ts';

export const revisionsQueryKey = (id: string) => ['alignment-revisions', id] as const;

export function getRevisions(id: string, signal?: AbortSignal) {
  return api(`/api/alignments/${encodeURIComponent(id)}/revisions/`, { schema: RevisionList, signal });
}
