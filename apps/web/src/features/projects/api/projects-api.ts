import { MoveResult, Project } from '@tazamun/contracts/projects';
import type { QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { ALIGNMENTS_KEY } from '../../../lib/api/get-alignments.ts';
import { PROJECTS_KEY } from '../../../lib/api/get-projects.ts';
import { useRefreshingMutation } from '../../../lib/react-query.ts';
import type { MutationConfig } from '../../../lib/react-query.ts';

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

/** Projects and the alignments listed under them change together. */
export function refreshProjects(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: PROJECTS_KEY });
  void queryClient.invalidateQueries({ queryKey: ALIGNMENTS_KEY });
}

export function useCreateProject(
  config?: MutationConfig<z.infer<typeof Project>, { name: string; description: string }>,
) {
  return useRefreshingMutation(createProject, refreshProjects, config);
}

export function useDeleteProject(config?: MutationConfig<unknown, string>) {
  return useRefreshingMutation(deleteProject, refreshProjects, config);
}

export function useMoveToProject(
  config?: MutationConfig<z.infer<typeof MoveResult>, { project: string; id: string }>,
) {
  return useRefreshingMutation(({ project, id }) => moveToProject(project, [id]), refreshProjects, config);
}
