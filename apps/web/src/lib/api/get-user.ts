// The signed-in user, shared by the guards, the shell and the account screens. Signed in means a
// stored access token and a loaded profile.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { User } from '@tazamun/contracts/auth';
import { api } from '../api-client.ts';
import { useHasToken } from '../auth.ts';

export const PROFILE_QUERY_KEY = ['auth', 'profile'] as const;

/** The profile endpoint answers with the user; older shapes wrap it in {user}. */
const ProfileResponse = z.union([User, z.object({ user: User }).transform((r) => r.user)]);

export function getUser(signal?: AbortSignal): Promise<User> {
  return api('/api/auth/profile/', { schema: ProfileResponse, signal });
}

export const userQueryOptions = () =>
  queryOptions({
    queryKey: PROFILE_QUERY_KEY,
    queryFn: ({ signal }) => getUser(signal),
    staleTime: 30_000,
    retry: false,
  });

export function useUser() {
  const hasToken = useHasToken();
  const query = useQuery({ ...userQueryOptions(), enabled: hasToken });
  return {
    hasToken,
    user: hasToken ? query.data : undefined,
    isLoading: hasToken && query.isPending,
    isError: query.isError,
    error: query.error,
    refetch: query.refetch,
  };
}
