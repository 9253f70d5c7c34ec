import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../test/render-app.tsx';
import { serveShell, startTestApi } from '../test/test-api.ts';
import type { TestApi } from '../test/test-api.ts';
import { confirmAction } from '../components/ui/confirm.tsx';
import { useUiStore } from '../stores/ui-store.ts';

let api: TestApi;
beforeEach(async () => {
  api = await startTestApi();
  serveShell(api);
});
afterEach(async () => {
  await api.close();
});

const open = (title: string) =>
  act(() => confirmAction({ title, body: 'body', action: 'Do it', onConfirm: () => undefined }));

describe('global modal', () => {
  it('locks the page scroll, closes on Escape, and one modal replaces another', async () => {
    await renderApp('/about', { apiUrl: api.url, language: 'en' });
    await screen.findByRole('heading', { name: 'About Tazamun' });
    open('First');
    expect(await screen.findByRole('dialog', { name: 'First' })).toBeTruthy();
    expect(document.body.hasAttribute('data-scroll-locked')).toBe(true);
    open('Second');
    expect(await screen.findByRole('dialog', { name: 'Second' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'First' })).toBeNull();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(useUiStore.getState().modal).toBeNull();
  });

  it('closes on navigation', async () => {
    const { router } = await renderApp('/about', { apiUrl: api.url, language: 'en' });
    await screen.findByRole('heading', { name: 'About Tazamun' });
    open('Leaving');
    expect(await screen.findByRole('dialog', { name: 'Leaving' })).toBeTruthy();
    await act(() => router.navigate('/terms'));
    await screen.findByRole('heading', { name: 'Terms of service', level: 1 });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
