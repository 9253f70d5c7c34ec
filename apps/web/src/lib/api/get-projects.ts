// The user's projects. Read by the projects screen, refreshed by the shared alignment actions
// (components/alignment) when an alignment in a project changes, so its key lives here.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ProjectList } from '@tazamun/contracts/projects';
import { api } from '../api-client.ts';

export const PROJECTS_KEY = ['projects'] as const;

export function getProjects(signal?: AbortSignal) {
  return api('/api/projects/', { schema: ProjectList, signal });
}

export const projectsQueryOptions = () =>
  queryOptions({
    queryKey: PROJECTS_KEY,
    queryFn: ({ signal }) => getProjects(signal),
  });

export function useProjects() {
  return useQuery(projectsQueryOptions());
}
