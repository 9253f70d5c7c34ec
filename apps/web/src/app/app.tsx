import { useEffect, useRef, useState } from 'react';
import { QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import type { createBrowserRouter } from 'react-router';
import { useTranslation } from 'react-i18next';
import { setSessionExpiredHandler, isApiError, isClientError } from '../lib/api-client.ts';
import { endSession } from '../lib/auth.ts';
import { useUser } from '../lib/api/get-user.ts';
import { i18n, initI18n } from '../lib/i18n.ts';
import { applyTheme } from '../lib/theme.ts';
import { toast, useUiStore } from '../stores/ui-store.ts';
import { LoadingOverlay } from '../components/ui/loading-overlay.tsx';
import { useAccountPreferences } from './use-account-preferences.ts';

type AppRouter = ReturnType<typeof createBrowserRouter>;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (count, error) => count < 1 && !isClientError(error),
        refetchOnWindowFocus: true,
      },
    },
  });
}

/** Keeps the document's theme in step with the store, follows the system while nothing is stored. */
function useThemeSync() {
  const theme = useUiStore((s) => s.theme);
  const themeStored = useUiStore((s) => s.themeStored);
  useEffect(() => {
    applyTheme(theme);
  }, [theme]);
  useEffect(() => {
    if (themeStored || typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia('(prefers-color-scheme: light)');
    const follow = () => useUiStore.getState().followSystemTheme();
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, [themeStored]);
  useEffect(() => {
    // Another tab or an extension may change the class; re-assert the chosen theme every 5 s.
    const timer = setInterval(() => {
      const dark = document.documentElement.classList.contains('dark');
      if (dark !== (useUiStore.getState().theme === 'dark')) applyTheme(useUiStore.getState().theme);
    }, 5000);
    return () => clearInterval(timer);
  }, []);
}

/** Start-up: the overlay stays until the messages are loaded and a stored session is resolved. */
function StartupGate({ router }: { router: AppRouter }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [i18nReady, setI18nReady] = useState(i18n.isInitialized);
  const { hasToken, isLoading, isError, error, user } = useUser();
  const startupChecked = useRef(false);
  useThemeSync();
  useAccountPreferences(i18nReady ? user : undefined);

  useEffect(() => {
    void initI18n().then(() => setI18nReady(true));
  }, []);

  useEffect(() => {
    setSessionExpiredHandler(() => {
      queryClient.clear();
      toast.error(i18n.t('errors.sessionExpired'));
      void router.navigate('/', { replace: true });
    });
  }, [queryClient, router]);

  useEffect(() => {
    if (startupChecked.current || !hasToken || isLoading) return;
    startupChecked.current = true;
    if (isError && !(isApiError(error) && error.kind === 'session')) {
      console.warn('profile could not be loaded at start-up; signing out', error);
      void endSession().then(() => queryClient.clear());
    }
  }, [hasToken, isLoading, isError, error, queryClient]);

  if (!i18nReady || isLoading) return <LoadingOverlay label={i18nReady ? t('common.loading') : 'Tazamun'} />;
  return <RouterProvider router={router} />;
}

export function App({ router, queryClient }: { router: AppRouter; queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <StartupGate router={router} />
    </QueryClientProvider>
  );
}
