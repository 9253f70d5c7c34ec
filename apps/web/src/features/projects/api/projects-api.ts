import { MoveResult, Project } from '@tazamun/contracts/projects';
import { api } from '../../../lib/api-client.ts';

export function createProject(body: { name: string; description: string }) {
  return api('/api/projects/', { method: 'POST', body, schema: Project });
}

export function deleteProject(id: string) {
  return api(`/api/projects/${encodeURIComponent(id)}/`, { method: 'DELETE' });
}

export function moveToProject(projectId: string, alignmentIds: string[]) {
  return api(`/api/projects/${encodeURIComponent(projectId)}/alignments/`, {
    method: 'POST',
    body: { alignment_ids: alignmentIds },
    schema: MoveResult,
  });
}
