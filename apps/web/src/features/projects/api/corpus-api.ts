import { BatchResponse } from '@tazamun/contracts/projects';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { retryAlignment } from '../../../lib/api/alignments-api.ts';
import { ALIGNMENTS_KEY } from '../../../lib/api/get-alignments.ts';
import { useRefreshingMutation } from '../../../lib/react-query.ts';
import type { MutationConfig } from '../../../lib/react-query.ts';
import { refreshProjects } from './projects-api.ts';

/** A zip in MFA's layout, or loose files (a dropped folder) whose names carry their relative paths. */
export type BatchInput = { zip: File } | { files: { file: File; path: string }[] };

const AUDIO = /\.(wav|mp3|m4a|ogg|flac)$/i;

export function uploadBatch(projectId: string, language: string, input: BatchInput) {
  const form = new FormData();
  form.append('language', language);
  if ('zip' in input) form.append('archive', input.zip, input.zip.name);
  else
    for (const { file, path } of input.files)
      form.append(AUDIO.test(path) ? 'audio' : 'text_file', file, path);
  return api(`/api/projects/${encodeURIComponent(projectId)}/batch/`, {
    method: 'POST',
    body: form,
    schema: BatchResponse,
  });
}

export function downloadProjectExport(projectId: string, format: 'textgrid' | 'json' | 'csv'): Promise<Blob> {
  return api<Blob>(`/api/projects/${encodeURIComponent(projectId)}/export/${format}/`, {
    responseType: 'blob',
  });
}

/** Each new recording is listed in the project and counts in its totals. */
export function useUploadBatch(
  projectId: string,
  language: string,
  config?: MutationConfig<z.infer<typeof BatchResponse>, BatchInput>,
) {
  return useRefreshingMutation(
    (input: BatchInput) => uploadBatch(projectId, language, input),
    refreshProjects,
    config,
  );
}

/**
 * One retry per failed recording, same files and options, one quota unit each (as an upload). The list
 * is read again whatever happened: some retries may have been queued before one failed.
 */
export function useRetryRecordings(config?: MutationConfig<number, string[]>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: async (ids: string[]) => {
      for (const id of ids) await retryAlignment(id);
      return ids.length;
    },
    onSettled: (...args) => {
      void queryClient.invalidateQueries({ queryKey: ALIGNMENTS_KEY });
      return config?.onSettled?.(...args);
    },
  });
}

export function useDownloadProjectExport(projectId: string, config?: MutationConfig<Blob>) {
  return useRefreshingMutation(() => downloadProjectExport(projectId, 'textgrid'), null, config);
}
