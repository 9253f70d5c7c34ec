// A few published demos for the examples section (the gallery itself is the demos feature).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { DemoList } from '@tazamun/contracts/demos';
import { api } from '../../../lib/api-client.ts';

export const EXAMPLE_DEMOS_KEY = ['demos', 'examples'] as const;

export function getExampleDemos(signal?: AbortSignal) {
  return api('/api/demos/', { schema: DemoList, signal, auth: false });
}

export const exampleDemosQueryOptions = () =>
  queryOptions({
    queryKey: EXAMPLE_DEMOS_KEY,
    queryFn: ({ signal }) => getExampleDemos(signal),
    select: (list) => list.results.slice(0, 3),
    staleTime: 60_000,
    retry: false,
  });

export function useExampleDemos() {
  return useQuery(exampleDemosQueryOptions());
}
