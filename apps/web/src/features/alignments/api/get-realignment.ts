import { RealignStatus } from '@tazamun/contracts/revisions';
import { api } from '../../../lib/api-client.ts';

export const realignmentQueryKey = (id: string) => ['alignment-realignment', id] as const;

/** The latest re-alignment of a stretch, or null when there was none (404). */
export async function getRealignment(id: string, signal?: AbortSignal) {
  try {
    return await api(`/api/alignments/${encodeURIComponent(id)}/realign/`, { schema: RealignStatus, signal });
  } catch (err) {
    if (err instanceof Error && 'status' in err && err.status === 404) return null;
    throw err;
  }
}
