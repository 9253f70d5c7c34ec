import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderApp } from '../../../test/render-app.tsx';
import { serveShell, startTestApi } from '../../../test/test-api.ts';
import type { TestApi } from '../../../test/test-api.ts';

let api: TestApi;
beforeEach(async () => {
  api = await startTestApi();
  serveShell(api);
});
afterEach(async () => {
  await api.close();
});

describe('the guide', () => {
  it('explains the platform in Arabic, linked from the footer, and says the API reference is in English', async () => {
    await renderApp('/guide', { apiUrl: api.url, language: 'ar' });
    await screen.findByRole('heading', { name: 'كيف تستخدم تزامن', level: 1 });
    screen.getByRole('heading', { name: 'تصحيحها بالفأرة أو بلوحة المفاتيح' });
    const link = screen.getByTestId('api-reference-link');
    expect(link.getAttribute('href')).toBe('/docs');
    expect(link.parentElement?.textContent).toContain('(بالإنجليزية)');
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'الدليل' }).getAttribute('href')).toBe('/guide');
    within(footer).getByRole('link', { name: 'مرجع الواجهة البرمجية (بالإنجليزية)' });
  });
});
