import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_PREFERENCES } from '@tazamun/contracts/auth';
import { renderApp } from '../test/render-app.tsx';
import { makeUser, serveShell, startTestApi } from '../test/test-api.ts';
import type { TestApi } from '../test/test-api.ts';
import { setTokens } from '../lib/token-storage.ts';
import { i18n } from '../lib/i18n.ts';
import { useUiStore } from '../stores/ui-store.ts';
import { expectToast } from '../test/toasts.ts';

const SAVED = { ...DEFAULT_PREFERENCES, language: 'fr' as const, theme: 'light' as const };

let api: TestApi;
beforeEach(async () => {
  api = await startTestApi();
  serveShell(api, makeUser({ preferred_language: 'fr', preferences: SAVED }));
  api.route('GET', '/api/alignments/', () => ({
    status: 200,
    body: { count: 0, page: 1, page_size: 20, next: null, previous: null, results: [] },
  }));
  setTokens({ access: 'a', refresh: 'r' });
  // A browser with no theme of its own: the store follows the system (dark in jsdom).
  useUiStore.setState({ theme: 'dark', themeStored: false });
  document.documentElement.classList.add('dark');
});
afterEach(async () => {
  await api.close();
});

const profileLoaded = () =>
  waitFor(() => expect(api.requests.some((r) => r.path === '/api/auth/profile/')).toBe(true));

describe('account preferences in the browser', () => {
  it('a browser with no choice of its own takes the account’s language and theme and keeps them', async () => {
    await renderApp('/settings', { apiUrl: api.url, language: 'en', storeLanguage: false });
    expect(localStorage.getItem('language')).toBeNull();
    await waitFor(() => expect(document.documentElement.lang).toBe('fr'));
    expect(document.documentElement.dir).toBe('ltr');
    expect(localStorage.getItem('language')).toBe('fr');
    await waitFor(() => expect(document.documentElement.classList.contains('dark')).toBe(false));
    expect(localStorage.getItem('theme')).toBe('light');
    expect(await screen.findByRole('heading', { name: 'Paramètres', level: 1 })).toBeTruthy();
  });

  it('a language and theme already chosen in this browser win over the account’s', async () => {
    localStorage.setItem('theme', 'dark');
    useUiStore.setState({ theme: 'dark', themeStored: true });
    await renderApp('/settings', { apiUrl: api.url, language: 'en' });
    await profileLoaded();
    expect(await screen.findByRole('heading', { name: 'Settings', level: 1 })).toBeTruthy();
    expect(document.documentElement.lang).toBe('en');
    expect(localStorage.getItem('language')).toBe('en');
    expect(useUiStore.getState().theme).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(localStorage.getItem('theme')).toBe('dark');
  });

  it('saving the appearance in Settings changes this browser and the account, then says so', async () => {
    const patches: unknown[] = [];
    api.route('PATCH', '/api/auth/preferences/', (req) => {
      patches.push(req.body);
      return { status: 200, body: { ...SAVED, ...(req.body as object) } };
    });
    localStorage.setItem('theme', 'light');
    useUiStore.setState({ theme: 'light', themeStored: true });
    await renderApp('/settings', { apiUrl: api.url, language: 'en' });
    await profileLoaded();
    await userEvent.selectOptions(await screen.findByLabelText('Interface language'), 'ar');
    await userEvent.click(screen.getByLabelText('Dark'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await expectToast('success', i18n.t('settings.saved', { lng: 'ar' }));
    expect(patches).toEqual([{ theme: 'dark', language: 'ar' }]);
    expect(localStorage.getItem('language')).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
  });

  it('animations off and compact mode take effect on the whole page', async () => {
    serveShell(api, makeUser({ preferences: { ...SAVED, animations: false, compact_mode: true } }));
    await renderApp('/settings', { apiUrl: api.url, language: 'en' });
    await profileLoaded();
    await waitFor(() => expect(document.documentElement.dataset.motion).toBe('reduce'));
    expect(document.documentElement.dataset.density).toBe('compact');
  });

  it('a refused save applies locally but does not claim it was saved', async () => {
    api.route('PATCH', '/api/auth/preferences/', () => ({
      status: 400,
      body: { code: 'validation_error', detail: 'Preferences refused.' },
    }));
    localStorage.setItem('theme', 'dark');
    useUiStore.setState({ theme: 'dark', themeStored: true });
    await renderApp('/settings', { apiUrl: api.url, language: 'en' });
    await profileLoaded();
    await userEvent.click(await screen.findByLabelText('Light'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await expectToast('error', 'Preferences refused.');
    expect(screen.queryByText('Settings saved.')).toBeNull();
    expect(document.querySelector('[data-toast-type="success"]')).toBeNull();
    expect(localStorage.getItem('theme')).toBe('light');
  });
});
