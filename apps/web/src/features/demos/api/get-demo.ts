import { queryOptions, useQuery } from '@tanstack/react-query';
import { DemoDetail } from '@tazamun/contracts/demos';
import { api } from '../../../lib/api-client.ts';

export const demoQueryKey = (id: string) => ['demo', id] as const;

export function getDemo(id: string, signal?: AbortSignal) {
  return api(`/api/demos/${encodeURIComponent(id)}/`, { schema: DemoDetail, signal, auth: false });
}

export const demoQueryOptions = (id: string) =>
  queryOptions({
    queryKey: demoQueryKey(id),
    queryFn: ({ signal }) => getDemo(id, signal),
  });

export function useDemo(id: string) {
  return useQuery(demoQueryOptions(id));
}
