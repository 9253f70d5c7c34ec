// How a feature's api/ files declare their mutations (as bulletproof-react's do): the request and the
// queries it makes stale belong to the api file; a component adds only its own reactions (a toast, a form
// reset, closing a dialog) through `config`, which runs after the refresh.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QueryClient, UseMutationOptions, UseMutationResult } from '@tanstack/react-query';

/** What a component may add to a feature's mutation. */
export type MutationConfig<TData, TVariables = void> = Omit<
  UseMutationOptions<TData, Error, TVariables>,
  'mutationFn'
>;

type OnSuccessArgs<TData, TVariables> = Parameters<
  NonNullable<UseMutationOptions<TData, Error, TVariables>['onSuccess']>
>;

/**
 * A mutation that refreshes what it changed: `refresh` invalidates (or updates) the queries the answer
 * makes stale, then the caller's own onSuccess runs.
 */
export function useRefreshingMutation<TData, TVariables = void>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  refresh: ((queryClient: QueryClient, data: TData, variables: TVariables) => void) | null,
  config: MutationConfig<TData, TVariables> = {},
): UseMutationResult<TData, Error, TVariables> {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn,
    onSuccess: (...args: OnSuccessArgs<TData, TVariables>) => {
      refresh?.(queryClient, args[0], args[1]);
      return config.onSuccess?.(...args);
    },
  });
}
