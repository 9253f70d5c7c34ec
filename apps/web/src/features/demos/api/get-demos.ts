import { queryOptions, useQuery } from '@tanstack/react-query';
import { DemoList } from '@tazamun/contracts/demos';
import { api } from '../../../lib/api-client.ts';

export interface DemoFilters {
  q?: string;
  category?: string;
  language?: string;
  duration?: string;
}

export const demosQueryKey = (filters: DemoFilters) => ['demos', filters] as const;

export function getDemos(filters: DemoFilters, signal?: AbortSignal) {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v) search.set(k, v);
  return api(`/api/demos/?${search.toString()}`, { schema: DemoList, signal, auth: false });
}

export const demosQueryOptions = (filters: DemoFilters) =>
  queryOptions({
    queryKey: demosQueryKey(filters),
    queryFn: ({ signal }) => getDemos(filters, signal),
    placeholderData: (previous) => previous,
    // On a first start the demos are still being aligned: look again until they are all in. An empty
    // gallery is also looked at again, less often: seeding starts a moment after the server does.
    refetchInterval: (query) => {
      const data = query.state.data;
      if (data && data.preparing > 0) return 3000;
      return data && data.count === 0 ? 10_000 : false;
    },
  });

export function useDemos(filters: DemoFilters) {
  return useQuery(demosQueryOptions(filters));
}
