// The session: whether there is one, ending it, leaving a protected page. The signed-in user's query is
// lib/api/get-user.ts.
import { useCallback, useSyncExternalStore } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { User } from '@tazamun/contracts/auth';
import { api } from './api-client.ts';
import { clearTokens, getAccessToken, getRefreshToken, subscribeTokens } from './token-storage.ts';

export function useHasToken(): boolean {
  return useSyncExternalStore(
    subscribeTokens,
    () => getAccessToken() !== null,
    () => false,
  );
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

/**
 * Signing out from a protected page: the page is left for the landing page first, then the session ends.
 * Router updates run in a React transition, so the protected page can still be on screen when the tokens
 * go; its guard would then send the visitor to /auth?next=… instead. The guard of the page being left
 * waits (for a few seconds at most) instead.
 */
let leaving: { path: string; until: number } | null = null;

export function isLeaving(path: string): boolean {
  return leaving !== null && leaving.path === path && Date.now() < leaving.until;
}

export function useSignOutAndLeave(): () => Promise<void> {
  const logout = useLogout();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return useCallback(async () => {
    leaving = { path: pathname, until: Date.now() + 5000 };
    void navigate('/', { replace: true });
    await logout();
  }, [logout, navigate, pathname]);
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
