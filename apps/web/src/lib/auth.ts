// The signed-in user, shared by the guards, the shell and the account screens. Signed in means a
// stored access token and a loaded profile.
import { useCallback, useSyncExternalStore } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { User } from '@tazamun/contracts/auth';
import { api } from './api-client.ts';
import { clearTokens, getAccessToken, getRefreshToken, subscribeTokens } from './token-storage.ts';

export const PROFILE_QUERY_KEY = ['auth', 'profile'] as const;

/** The profile endpoint answers with the user; older shapes wrap it in {user}. */
const ProfileResponse = z.union([User, z.object({ user: User }).transform((r) => r.user)]);

export function fetchProfile(signal?: AbortSignal): Promise<User> {
  return api('/api/auth/profile/', { schema: ProfileResponse, signal });
}

export function useHasToken(): boolean {
  return useSyncExternalStore(
    subscribeTokens,
    () => getAccessToken() !== null,
    () => false,
  );
}

export function useUser() {
  const hasToken = useHasToken();
  const query = useQuery({
    queryKey: PROFILE_QUERY_KEY,
    queryFn: ({ signal }) => fetchProfile(signal),
    enabled: hasToken,
    staleTime: 30_000,
    retry: false,
  });
  return {
    hasToken,
    user: hasToken ? query.data : undefined,
    isLoading: hasToken && query.isPending,
    isError: query.isError,
    error: query.error,
    refetch: query.refetch,
  };
}

/** Clears the session on the server (failure ignored) and locally: tokens, cached data, session storage. */
export async function endSession(): Promise<void> {
  const refresh = getRefreshToken();
  if (getAccessToken() || refresh) {
    try {
      await api('/api/auth/logout/', {
        method: 'POST',
        body: refresh ? { refresh } : {},
        refreshOn401: false,
      });
    } catch {
      // The spec ignores logout failures: the local session ends regardless.
    }
  }
  clearTokens();
  try {
    sessionStorage.clear();
  } catch {
    // Nothing to clear.
  }
}

export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await endSession();
    queryClient.clear();
  }, [queryClient]);
}

export function initialsOf(user: Pick<User, 'first_name' | 'last_name' | 'email'>): string {
  const letters = [user.first_name, user.last_name]
    .map((part) => part.trim().charAt(0))
    .filter(Boolean)
    .join('');
  return (letters || user.email.charAt(0)).toUpperCase();
}

export function hasQuotaLeft(user: User): boolean {
  return user.quota.used_today < user.quota.daily_limit;
}
