import { useQuery } from '@tanstack/react-query';
import { DemoDetail, DemoList } from '@tazamun/contracts/demos';
import { api } from '../../../lib/api-client.ts';

export interface DemoFilters {
  q?: string;
  category?: string;
  language?: string;
  duration?: string;
}

export function useDemos(filters: DemoFilters) {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v) search.set(k, v);
  return useQuery({
    queryKey: ['demos', filters],
    queryFn: ({ signal }) =>
      api(`/api/demos/?${search.toString()}`, { schema: DemoList, signal, auth: false }),
    placeholderData: (previous) => previous,
    // On a first start the demos are still being aligned: look again until they are all in. An empty
    // gallery is also looked at again, less often: seeding starts a moment after the server does.
    refetchInterval: (query) => {
      const data = query.state.data;
      if (data && data.preparing > 0) return 3000;
      return data && data.count === 0 ? 10_000 : false;
    },
  });
}

export function useDemo(id: string) {
  return useQuery({
    queryKey: ['demo', id],
    queryFn: ({ signal }) =>
      api(`/api/demos/${encodeURIComponent(id)}/`, { schema: DemoDetail, signal, auth: false }),
  });
}
