import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../test/render-app.tsx';
import { serveShell, startTestApi } from '../../test/test-api.ts';
import type { TestApi } from '../../test/test-api.ts';

let api: TestApi;
beforeEach(async () => {
  api = await startTestApi();
  serveShell(api);
});
afterEach(async () => {
  await api.close();
});

function serveConfig(sourceUrl: string | undefined) {
  api.route('GET', '/api/config/', () => ({
    status: 200,
    body: {
      version: 'v1.0.0',
      org_name: 'Test Lab',
      org_url: null,
      org_logo_url: null,
      support_email: null,
      auto_approve: false,
      default_daily_quota: 10,
      docs_url: '/docs',
      ...(sourceUrl === undefined ? {} : { source_url: sourceUrl }),
    },
  }));
}

const configLoaded = () =>
  waitFor(() => expect(api.requests.some((r) => r.path === '/api/config/')).toBe(true));

describe('source code link (AGPL §13)', () => {
  it('the footer links the tarball the server serves, in every language', async () => {
    serveConfig('/api/source/');
    const { unmount } = await renderApp('/', { apiUrl: api.url, language: 'en' });
    await configLoaded();
    const link = await screen.findByTestId('source-link');
    expect(link.textContent).toBe('Source code');
    expect(link.getAttribute('href')).toBe(`${api.url}/api/source/`);
    expect(link.hasAttribute('download')).toBe(true);
    expect(link.getAttribute('target')).toBeNull();
    expect(within(screen.getByRole('navigation', { name: 'Legal' })).getByTestId('source-link')).toBe(link);
    unmount();

    for (const [language, label] of [
      ['fr', 'Code source'],
      ['ar', 'الشيفرة المصدرية'],
    ] as const) {
      const view = await renderApp('/', { apiUrl: api.url, language });
      const localised = await screen.findByTestId('source-link');
      expect(localised.textContent).toBe(label);
      expect(localised.getAttribute('href')).toBe(`${api.url}/api/source/`);
      if (language === 'ar') expect(document.documentElement.getAttribute('dir')).toBe('rtl');
      view.unmount();
    }
  });

  it('points to SOURCE_URL when the deployment sets one, in the footer and on the About page', async () => {
    const url = 'https://git.example.org/lab/tazamun/-/tree/v1.0.0';
    serveConfig(url);
    await renderApp('/about', { apiUrl: api.url, language: 'en' });
    await waitFor(() => expect(screen.getByTestId('source-link').getAttribute('href')).toBe(url));
    const footer = screen.getByTestId('source-link');
    expect(footer.getAttribute('target')).toBe('_blank');
    expect(footer.getAttribute('rel')).toBe('noopener noreferrer');
    expect(footer.hasAttribute('download')).toBe(false);
    // the layout shows while the About page's code arrives (a screen loaded on demand)
    const about = await screen.findByTestId('about-source-link');
    expect(about.getAttribute('href')).toBe(url);
    expect(about.textContent).toBe('Source code of this version');
    // the address itself is spelled out under the link, left to right whatever the page's direction
    const address = screen.getByText(url);
    expect(address.previousElementSibling).toBe(about);
    expect(address.getAttribute('dir')).toBe('ltr');
    // the link sits in the "Source code and licence" section the footer icon scrolls to
    expect(document.getElementById('source')?.contains(about)).toBe(true);
  });

  it('the About page offers the download, and falls back to /api/source/ when the server does not say', async () => {
    serveConfig(undefined);
    await renderApp('/about', { apiUrl: api.url, language: 'fr' });
    await configLoaded();
    const about = await screen.findByTestId('about-source-link');
    expect(about.getAttribute('href')).toBe(`${api.url}/api/source/`);
    expect(about.textContent).toBe('Télécharger le code source de cette version (.tar.gz)');
    expect(about.hasAttribute('download')).toBe(true);
  });
});
