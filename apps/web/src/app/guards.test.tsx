import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderApp } from '../test/render-app.tsx';
import { makeUser, serveShell, startTestApi } from '../test/test-api.ts';
import type { TestApi } from '../test/test-api.ts';
import { setTokens } from '../lib/token-storage.ts';
import { expectToast } from '../test/toasts.ts';

let api: TestApi;
beforeEach(async () => {
  api = await startTestApi();
});
afterEach(async () => {
  await api.close();
});

describe('route guards', () => {
  it('sends an anonymous visitor of a protected page to /auth', async () => {
    serveShell(api);
    const { router } = await renderApp('/dashboard', { apiUrl: api.url, language: 'en' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(router.state.location.search).toContain('next=%2Fdashboard');
    expect(await screen.findByRole('form', { name: 'Welcome back' })).toBeTruthy();
  });

  it('loads the profile of a stored session, then sends a waitlisted user to /waitlist', async () => {
    serveShell(api, makeUser({ is_approved: false }));
    setTokens({ access: 'a', refresh: 'r' });
    const { router } = await renderApp('/dashboard', { apiUrl: api.url, language: 'en' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/waitlist'));
    expect((await screen.findByTestId('waitlist-status')).textContent).toBe('Pending approval');
    expect(screen.getByTestId('waitlist-email').textContent).toBe('layla@example.org');
  });

  it('shows the page to an approved user', async () => {
    serveShell(api, makeUser());
    setTokens({ access: 'a', refresh: 'r' });
    const { router } = await renderApp('/dashboard', { apiUrl: api.url, language: 'en' });
    expect(await screen.findByRole('heading', { name: 'Welcome, Layla' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(document.title).toBe('Dashboard · Tazamun');
  });

  it('sends a user without quota from /upload to /dashboard with the quota toast', async () => {
    serveShell(
      api,
      makeUser({
        quota: { daily_limit: 10, used_today: 10, remaining: 0, resets_at: '2025-03-02T00:00:00Z' },
      }),
    );
    setTokens({ access: 'a', refresh: 'r' });
    const { router } = await renderApp('/upload', { apiUrl: api.url, language: 'fr' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    await expectToast('error', 'Quota quotidien épuisé. Revenez demain ou mettez à niveau votre compte.');
  });

  it('lets a user with quota left into /upload', async () => {
    serveShell(api, makeUser());
    setTokens({ access: 'a', refresh: 'r' });
    const { router } = await renderApp('/upload', { apiUrl: api.url, language: 'en' });
    expect(await screen.findByRole('heading', { name: 'New alignment', level: 1 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/upload');
  });

  it('signing out from a protected page lands on / without passing through /auth', async () => {
    serveShell(api, makeUser());
    setTokens({ access: 'a', refresh: 'r' });
    const { router } = await renderApp('/dashboard', { apiUrl: api.url, language: 'en' });
    await screen.findByRole('heading', { name: 'Welcome, Layla' });
    const seen: string[] = [];
    const stop = router.subscribe((state) => seen.push(state.location.pathname));
    fireEvent.keyDown(screen.getByRole('button', { name: 'Account menu' }), { key: 'Enter' });
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Log out' }));
    await waitFor(() => expect(localStorage.getItem('access_token')).toBeNull());
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    stop();
    expect(seen).not.toContain('/auth');
  });

  it('logs out when the stored session cannot load the profile at start-up', async () => {
    serveShell(api);
    api.route('GET', '/api/auth/profile/', () => ({
      status: 500,
      body: { code: 'internal_error', detail: 'boom' },
    }));
    setTokens({ access: 'a', refresh: 'r' });
    await renderApp('/', { apiUrl: api.url, language: 'en' });
    await waitFor(() => expect(localStorage.getItem('access_token')).toBeNull());
    expect(await screen.findAllByRole('link', { name: 'Log in' })).not.toHaveLength(0);
  });
});

describe('session expiry', () => {
  it('a refused refresh clears the tokens, shows the French message and returns to the root', async () => {
    serveShell(api);
    api.route('GET', '/api/auth/profile/', () => ({
      status: 401,
      body: { code: 'token_invalid', detail: 'expired' },
    }));
    api.route('POST', '/api/auth/token/refresh/', () => ({
      status: 401,
      body: { code: 'token_invalid', detail: 'expired' },
    }));
    setTokens({ access: 'stale', refresh: 'revoked' });
    const { router } = await renderApp('/profile', { apiUrl: api.url, language: 'fr' });
    await expectToast('error', 'Session expirée, veuillez vous reconnecter');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(localStorage.getItem('refresh_token')).toBeNull();
    expect(api.requests.filter((r) => r.path === '/api/auth/token/refresh/')).toHaveLength(1);
  });
});

describe('routes', () => {
  it('redirects /login to /auth and /register to the registration view', async () => {
    serveShell(api);
    const { router } = await renderApp('/register', { apiUrl: api.url, language: 'en' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(router.state.location.search).toBe('?view=register');
    expect(await screen.findByRole('form', { name: 'Create your account' })).toBeTruthy();
    await router.navigate('/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(router.state.location.search).toBe('');
  });

  it('shows the not-found page for unknown paths', async () => {
    serveShell(api);
    await renderApp('/no/such/page', { apiUrl: api.url, language: 'en' });
    expect(await screen.findByRole('heading', { name: 'This page does not exist' })).toBeTruthy();
    expect(document.title).toBe('Page not found · Tazamun');
  });
});
