// A project's adapted models (GET/POST /api/projects/{id}/models/, DELETE …/models/{model}/) and the
// project's setting that makes uploads use them. The list is followed while an adaptation waits or runs.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { AdaptedModel, ModelList, ModelRerunResponse, ModelStart } from '@tazamun/contracts/models';
import { Project } from '@tazamun/contracts/projects';
import type { ProjectList } from '@tazamun/contracts/projects';
import { api } from '../../../lib/api-client.ts';
import { ALIGNMENTS_KEY } from '../../../lib/api/get-alignments.ts';
import { PROJECTS_KEY } from '../../../lib/api/get-projects.ts';
import { useRefreshingMutation } from '../../../lib/react-query.ts';
import type { MutationConfig } from '../../../lib/react-query.ts';

const ACTIVE = new Set(['queued', 'processing']);
/** How often the list is read again while an adaptation waits or runs. */
export const MODELS_POLL_MS = 2000;

export const modelsKey = (projectId: string) => ['projects', 'models', projectId] as const;

export function getModels(projectId: string, signal?: AbortSignal) {
  return api(`/api/projects/${encodeURIComponent(projectId)}/models/`, { schema: ModelList, signal });
}

export const modelsQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: modelsKey(projectId),
    queryFn: ({ signal }) => getModels(projectId, signal),
    refetchInterval: (q) =>
      q.state.data?.results.some((m) => ACTIVE.has(m.status)) ? MODELS_POLL_MS : false,
  });

export function useModels(projectId: string) {
  return useQuery(modelsQueryOptions(projectId));
}

/** The start form: the contracts' request, a language chosen (i18n keys as messages). */
export const AdaptForm = ModelStart.extend({
  language: z.string().regex(/^[a-z]{3}$/, 'projects.models.languageInvalid'),
});
export type AdaptFormInput = z.input<typeof AdaptForm>;

export function startAdaptation(projectId: string, body: ModelStart) {
  return api(`/api/projects/${encodeURIComponent(projectId)}/models/`, {
    method: 'POST',
    body,
    schema: AdaptedModel,
  });
}

export function deleteModel(projectId: string, modelId: string) {
  return api(`/api/projects/${encodeURIComponent(projectId)}/models/${encodeURIComponent(modelId)}/`, {
    method: 'DELETE',
  });
}

export function rerunProject(projectId: string, modelId: string) {
  return api(`/api/projects/${encodeURIComponent(projectId)}/models/${encodeURIComponent(modelId)}/rerun/`, {
    method: 'POST',
    schema: ModelRerunResponse,
  });
}

export function setUseAdaptedModel(projectId: string, on: boolean) {
  return api(`/api/projects/${encodeURIComponent(projectId)}/`, {
    method: 'PATCH',
    body: { use_adapted_model: on },
    schema: Project,
  });
}

const refreshModels = (projectId: string) => (queryClient: QueryClient) =>
  void queryClient.invalidateQueries({ queryKey: modelsKey(projectId) });

export function useStartAdaptation(
  projectId: string,
  config?: MutationConfig<z.infer<typeof AdaptedModel>, ModelStart>,
) {
  return useRefreshingMutation(
    (body: ModelStart) => startAdaptation(projectId, body),
    refreshModels(projectId),
    config,
  );
}

export function useDeleteModel(projectId: string, config?: MutationConfig<unknown, string>) {
  return useRefreshingMutation((id: string) => deleteModel(projectId, id), refreshModels(projectId), config);
}

/** Every completed recording of the model's language re-aligned with it, each as a new revision. */
export function useRerunProject(
  projectId: string,
  config?: MutationConfig<z.infer<typeof ModelRerunResponse>, string>,
) {
  return useRefreshingMutation(
    (modelId: string) => rerunProject(projectId, modelId),
    (queryClient) => void queryClient.invalidateQueries({ queryKey: ALIGNMENTS_KEY }),
    config,
  );
}

/** The project's setting: the projects list shows it, the models list marks the model in use. */
export function useSetUseAdaptedModel(
  projectId: string,
  config?: MutationConfig<z.infer<typeof Project>, boolean>,
) {
  return useRefreshingMutation(
    (on: boolean) => setUseAdaptedModel(projectId, on),
    (queryClient, project) => {
      // the answer goes into the list at once, so the box does not flick back until the list is read again
      queryClient.setQueryData(
        PROJECTS_KEY,
        (old: z.infer<typeof ProjectList> | undefined) =>
          old && { ...old, results: old.results.map((p) => (p.id === project.id ? project : p)) },
      );
      void queryClient.invalidateQueries({ queryKey: PROJECTS_KEY });
      void queryClient.invalidateQueries({ queryKey: modelsKey(projectId) });
    },
    config,
  );
}
