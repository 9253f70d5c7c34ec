// Session tokens live in localStorage under the spec's keys (access_token, refresh_token). Components
// subscribe so that logging in or out in this tab, or in another one, re-renders the guards.
import type { Tokens } from '@tazamun/contracts/auth';

const ACCESS_KEY = 'access_token';
const REFRESH_KEY = 'refresh_token';
const REMEMBER_KEY = 'remember_me';

const listeners = new Set<() => void>();

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function emit(): void {
  for (const listener of listeners) listener();
}

export function getAccessToken(): string | null {
  return read(ACCESS_KEY);
}

export function getRefreshToken(): string | null {
  return read(REFRESH_KEY);
}

export function getRememberMe(): boolean {
  return read(REMEMBER_KEY) === 'true';
}

export function setTokens(tokens: Tokens, rememberMe?: boolean): void {
  localStorage.setItem(ACCESS_KEY, tokens.access);
  localStorage.setItem(REFRESH_KEY, tokens.refresh);
  if (rememberMe !== undefined) localStorage.setItem(REMEMBER_KEY, String(rememberMe));
  emit();
}

export function clearTokens(): void {
  localStorage.removeItem(ACCESS_KEY);
  localStorage.removeItem(REFRESH_KEY);
  localStorage.removeItem(REMEMBER_KEY);
  emit();
}

export function subscribeTokens(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === ACCESS_KEY || event.key === REFRESH_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
