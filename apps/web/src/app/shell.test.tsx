import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../test/render-app.tsx';
import { serveShell, startTestApi } from '../test/test-api.ts';
import type { TestApi } from '../test/test-api.ts';

let api: TestApi;
beforeEach(async () => {
  api = await startTestApi();
});
afterEach(async () => {
  await api.close();
});

describe('shell', () => {
  it('shows the parent organisation logo linking out, and its name when the logo fails to load', async () => {
    serveShell(api);
    api.route('GET', '/api/config/', () => ({
      status: 200,
      body: {
        version: 'v1.0.0',
        org_name: 'Test Lab',
        org_url: 'https://lab.example.org',
        org_logo_url: '/missing-logo.png',
        support_email: 'support@example.org',
        auto_approve: false,
        default_daily_quota: 10,
        docs_url: '/docs',
      },
    }));
    await renderApp('/', { apiUrl: api.url, language: 'en' });
    const link = await screen.findByTestId('org-link');
    expect(link.getAttribute('href')).toBe('https://lab.example.org');
    const logo = await screen.findByRole('img', { name: 'Test Lab' });
    fireEvent.error(logo);
    await waitFor(() => expect(link.textContent).toBe('Test Lab'));
    expect(screen.queryByRole('img', { name: 'Test Lab' })).toBeNull();
  });

  it('names no parent organisation when none is configured ("Tazamun by Tazamun")', async () => {
    serveShell(api);
    api.route('GET', '/api/config/', () => ({
      status: 200,
      body: {
        version: 'v1.0.0',
        org_name: null,
        org_url: null,
        org_logo_url: null,
        support_email: null,
        auto_approve: false,
        default_daily_quota: 10,
        docs_url: '/docs',
      },
    }));
    await renderApp('/', { apiUrl: api.url, language: 'en' });
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(api.requests.some((r) => r.path === '/api/config/')).toBe(true));
    expect(screen.queryByTestId('org-link')).toBeNull();
    expect(screen.queryByText('by')).toBeNull();
  });

  it('titles the tab after the auth view shown', async () => {
    serveShell(api);
    const { router } = await renderApp('/auth?view=register', { apiUrl: api.url, language: 'en' });
    await waitFor(() => expect(document.title).toBe('Create an account · Tazamun'));
    await act(() => router.navigate('/auth'));
    await waitFor(() => expect(document.title).toBe('Sign in · Tazamun'));
    await act(() => router.navigate('/auth?view=forgot'));
    await waitFor(() => expect(document.title).toBe('Forgotten password · Tazamun'));
  });

  it('scrolls to the hash anchor after navigation, else to the top', async () => {
    serveShell(api);
    const scrollTo = vi.mocked(window.scrollTo);
    const intoView = vi.mocked(Element.prototype.scrollIntoView);
    const { router } = await renderApp('/', { apiUrl: api.url, language: 'en' });
    await screen.findByRole('heading', { level: 1 });
    intoView.mockClear();
    await act(() => router.navigate('/about#contact'));
    await screen.findByRole('heading', { name: 'Contact', level: 2 });
    await waitFor(() => expect(intoView).toHaveBeenCalled());
    expect(intoView.mock.contexts.at(-1)).toBe(document.getElementById('contact'));
    scrollTo.mockClear();
    await act(() => router.navigate('/terms'));
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' }));
  });

  it('reports the API health in the footer', async () => {
    serveShell(api);
    await renderApp('/', { apiUrl: api.url, language: 'en' });
    await waitFor(() => expect(screen.getByTestId('status').getAttribute('data-status')).toBe('ok'));
    const footer = screen.getByRole('contentinfo');
    const status = screen.getByTestId('status');
    expect(footer.contains(status)).toBe(true);
    expect(status.textContent).toBe('All systems operational');
    // beside the running version
    expect(within(footer).getByText('v1.0.0').nextElementSibling).toBe(status);
  });
});
