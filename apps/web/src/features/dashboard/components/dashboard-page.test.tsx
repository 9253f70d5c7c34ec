import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderApp } from '../../../test/render-app.tsx';
import { makeUser, serveShell, startTestApi } from '../../../test/test-api.ts';
import type { TestApi } from '../../../test/test-api.ts';
import { setTokens } from '../../../lib/token-storage.ts';

const AT = '2026-03-01T10:00:00.000Z';
let api: TestApi;
beforeEach(async () => {
  api = await startTestApi();
  setTokens({ access: 'a', refresh: 'r' });
});
afterEach(async () => {
  await api.close();
});

describe('dashboard', () => {
  it('lists recent projects as projects, and says whom to ask for more quota when it is used up', async () => {
    serveShell(
      api,
      makeUser({
        quota: { daily_limit: 2, used_today: 2, remaining: 0, resets_at: '2026-03-02T00:00:00.000Z' },
      }),
    );
    api.route('GET', '/api/projects/', () => ({
      status: 200,
      body: {
        count: 1,
        results: [
          {
            id: 'p1',
            name: 'Field corpus',
            description: '',
            alignments_count: 3,
            completed_count: 3,
            total_duration: 30,
            mean_confidence: 0.9,
            use_adapted_model: false,
            created_at: AT,
            updated_at: AT,
          },
        ],
      },
    }));
    api.route('GET', '/api/alignments/', () => ({
      status: 200,
      body: { count: 0, page: 1, page_size: 5, next: null, previous: null, results: [] },
    }));
    await renderApp('/dashboard', { apiUrl: api.url, language: 'en' });
    const projects = await screen.findByTestId('recent-projects');
    const link = within(projects).getByRole('link', { name: 'Field corpus' });
    expect(link.getAttribute('href')).toBe('/projects?project=p1');
    expect(projects.textContent).toContain('3 alignments');
    screen.getByRole('heading', { name: 'Recent alignments' });
    const more = await screen.findByTestId('quota-more');
    expect(more.textContent).toContain('Need more each day? Write to support@example.org');
    expect(more.textContent).not.toMatch(/upgrade/i);
  });
});
