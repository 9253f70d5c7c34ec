import { useQuery } from '@tanstack/react-query';
import { DemoList } from '@tazamun/contracts/demos';
import { api } from '../../../lib/api-client.ts';

/** A few published demos for the examples section (the gallery itself is the demos feature). */
export function useExampleDemos() {
  return useQuery({
    queryKey: ['demos', 'examples'],
    queryFn: ({ signal }) => api('/api/demos/', { schema: DemoList, signal, auth: false }),
    select: (list) => list.results.slice(0, 3),
    staleTime: 60_000,
    retry: false,
  });
}
