import { AlignmentSummary, LANGUAGE_CODE, ShareResponse, UploadOptions } from '@tazamun/contracts/alignments';
import { AlignmentOptions } from '@tazamun/contracts/alignment-options';
import { VideoStatus } from '@tazamun/contracts/exports';
import type { VideoRequest } from '@tazamun/contracts/exports';
import type { QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { alignmentQueryKey } from '../../../lib/api/get-alignment.ts';
import { ALIGNMENTS_KEY } from '../../../lib/api/get-alignments.ts';
import { PROFILE_QUERY_KEY } from '../../../lib/api/get-user.ts';
import { videoQueryKey } from '../../../lib/api/get-video.ts';
import { useRefreshingMutation } from '../../../lib/react-query.ts';
import type { MutationConfig } from '../../../lib/react-query.ts';

/**
 * The upload form: the contracts' options (UploadOptions, AlignmentOptions), a language code as typed
 * (639-1 or 639-3; the server answers with 639-3), the recording and the transcript. The messages are
 * i18n keys (lib/form-errors.ts).
 */
export const UploadForm = AlignmentOptions.pick({
  precision: true,
  engine: true,
  normalize: true,
  remove_fillers: true,
  numbers_to_words: true,
}).extend({
  language: z.string().regex(LANGUAGE_CODE, 'upload.errors.language'),
  title: UploadOptions.shape.title.unwrap(),
  /** '' for none */
  project_id: z.string(),
  audio: z
    .union([z.instanceof(File), z.null()])
    .pipe(z.instanceof(File, { error: 'upload.errors.audioRequired' })),
  text: z.string().refine((text) => text.trim() !== '', 'upload.errors.textRequired'),
  /** the file the transcript came from, while the text shown is still exactly its content */
  text_file: z.instanceof(File).nullable(),
});
export type UploadFormInput = z.input<typeof UploadForm>;
export type UploadFormOutput = z.output<typeof UploadForm>;

/** The multipart body: the text fields before the files, as the server streams the parts in order. */
export function uploadFormData(v: UploadFormOutput): FormData {
  const form = new FormData();
  form.append('language', v.language);
  form.append('precision', v.precision);
  form.append('engine', v.engine);
  form.append('normalize', String(v.normalize));
  form.append('remove_fillers', String(v.remove_fillers));
  form.append('numbers_to_words', String(v.numbers_to_words));
  if (v.title.trim()) form.append('title', v.title.trim());
  if (v.project_id) form.append('project_id', v.project_id);
  if (v.text_file) form.append('text_file', v.text_file);
  else form.append('text', v.text);
  form.append('audio', v.audio);
  return form;
}

export function uploadAlignment(form: FormData) {
  return api('/api/alignments/', { method: 'POST', body: form, schema: AlignmentSummary });
}

export function cancelAlignment(id: string) {
  return api(`/api/alignments/${encodeURIComponent(id)}/cancel/`, {
    method: 'POST',
    schema: AlignmentSummary,
  });
}

/** A read-only link to the alignment that anyone can open. */
export function shareAlignment(id: string) {
  return api(`/api/alignments/${encodeURIComponent(id)}/share/`, { method: 'POST', schema: ShareResponse });
}

export function unshareAlignment(id: string) {
  return api(`/api/alignments/${encodeURIComponent(id)}/share/`, { method: 'DELETE' });
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

export function downloadVideo(id: string): Promise<Blob> {
  return api<Blob>(`/api/alignments/${encodeURIComponent(id)}/video/file/`, { responseType: 'blob' });
}

type Summary = z.infer<typeof AlignmentSummary>;

const refreshDetail = (id: string) => (queryClient: QueryClient) =>
  void queryClient.invalidateQueries({ queryKey: alignmentQueryKey(id) });

/** A job that ended while its page was open: its detail, the lists and the quota are read again. */
export function refreshEndedAlignment(queryClient: QueryClient, id: string): void {
  void queryClient.invalidateQueries({ queryKey: alignmentQueryKey(id) });
  void queryClient.invalidateQueries({ queryKey: ALIGNMENTS_KEY });
  void queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
}

/** A new alignment: it joins the lists, and the profile's quota counts one more unit used. */
export function useUploadAlignment(config?: MutationConfig<Summary, FormData>) {
  return useRefreshingMutation(
    uploadAlignment,
    (queryClient) => {
      void queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: ALIGNMENTS_KEY });
    },
    config,
  );
}

export function useCancelAlignment(id: string, config?: MutationConfig<Summary>) {
  return useRefreshingMutation(() => cancelAlignment(id), refreshDetail(id), config);
}

/** The detail says whether the alignment is shared. */
export function useShareAlignment(id: string, config?: MutationConfig<z.infer<typeof ShareResponse>>) {
  return useRefreshingMutation(() => shareAlignment(id), refreshDetail(id), config);
}

export function useUnshareAlignment(id: string, config?: MutationConfig<unknown>) {
  return useRefreshingMutation(() => unshareAlignment(id), refreshDetail(id), config);
}

export function useExportFile(
  id: string,
  config?: MutationConfig<Blob, { format: string; options: Record<string, string> }>,
) {
  return useRefreshingMutation(({ format, options }) => exportFile(id, format, options), null, config);
}

/** The render's status is the answer: it becomes the video query's data, which then follows it. */
export function useRequestVideo(
  id: string,
  config?: MutationConfig<z.infer<typeof VideoStatus>, Partial<VideoRequest>>,
) {
  return useRefreshingMutation(
    (body: Partial<VideoRequest>) => requestVideo(id, body),
    (queryClient, video) => queryClient.setQueryData(videoQueryKey(id), video),
    config,
  );
}

export function useDownloadVideo(id: string, config?: MutationConfig<Blob>) {
  return useRefreshingMutation(() => downloadVideo(id), null, config);
}
