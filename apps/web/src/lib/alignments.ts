// Alignment data used by several screens (dashboard, profile, projects, results).
import { useQuery } from '@tanstack/react-query';
import {
  AlignmentListResponse,
  AlignmentSummary,
  LanguagesResponse,
  PublicStats,
} from '@tazamun/contracts/alignments';
import { api } from './api-client.ts';

/**
 * Query keys shared by several screens, each written once. Invalidating a root key refreshes every query
 * under it: ALIGNMENTS_KEY covers each list of alignments, alignmentQueryKey(id) one alignment's detail.
 */
export const ALIGNMENTS_KEY = ['alignments'] as const;
export const PROJECTS_KEY = ['projects'] as const;
export const alignmentQueryKey = (id: string) => ['alignment', id] as const;
export const alignmentListKey = (params: AlignmentListParams) => [...ALIGNMENTS_KEY, 'list', params] as const;
export const projectBatchKey = (projectId: string) =>
  [...ALIGNMENTS_KEY, 'project-batch', projectId] as const;
export const audioUrlQueryKey = (id: string) => ['alignment-audio-url', id] as const;
export const videoQueryKey = (id: string) => ['video', id] as const;

export interface AlignmentListParams {
  page?: number;
  page_size?: number;
  project?: string;
  q?: string;
  status?: string;
}

export function useAlignmentList(params: AlignmentListParams, enabled = true) {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') search.set(k, String(v));
  return useQuery({
    queryKey: alignmentListKey(params),
    queryFn: ({ signal }) =>
      api(`/api/alignments/?${search.toString()}`, { schema: AlignmentListResponse, signal }),
    enabled,
    staleTime: 10_000,
  });
}

export function useLanguages() {
  return useQuery({
    queryKey: ['languages'],
    queryFn: ({ signal }) => api('/api/languages/', { schema: LanguagesResponse, signal, auth: false }),
    staleTime: Infinity,
  });
}

export function usePublicStats() {
  return useQuery({
    queryKey: ['stats', 'public'],
    queryFn: ({ signal }) => api('/api/stats/public/', { schema: PublicStats, signal, auth: false }),
    staleTime: 60_000,
    retry: false,
  });
}

// ISO 639-3 codes of languages written right to left (content direction of transcripts).
const RTL_639_3 = new Set([
  'ara',
  'arb',
  'ary',
  'arz',
  'apc',
  'acm',
  'ajp',
  'aeb',
  'afb',
  'ayl',
  'heb',
  'fas',
  'pes',
  'prs',
  'urd',
  'pus',
  'pbt',
  'snd',
  'uig',
  'ckb',
  'yid',
  'div',
  'syr',
  'kur',
  'bal',
  'skr',
]);

export function contentDirection(iso3: string | null | undefined): 'rtl' | 'ltr' {
  return iso3 && RTL_639_3.has(iso3) ? 'rtl' : 'ltr';
}

// Managing one alignment from any screen that lists it (results page, projects, profile).
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

/** The query of a running alignment's progress (features/alignments/api/get-progress.ts fills it). */
export const progressQueryKey = (id: string) => ['alignment-progress', id] as const;
