import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../test/render-app.tsx';
import { makeUser, serveShell, startTestApi } from '../../test/test-api.ts';
import { setTokens } from '../../lib/token-storage.ts';
import type { TestApi } from '../../test/test-api.ts';
import { useUiStore } from '../../stores/ui-store.ts';

let api: TestApi;
beforeEach(async () => {
  api = await startTestApi();
  serveShell(api, makeUser());
  setTokens({ access: 'a', refresh: 'r' });
});
afterEach(async () => {
  await api.close();
  useUiStore.getState().clearNotifications();
});

describe('notifications panel', () => {
  it('pop-ups never cover the open panel, which lists what they said', async () => {
    await renderApp('/dashboard', { apiUrl: api.url, language: 'fr' });
    const user = userEvent.setup();
    act(() => {
      useUiStore.getState().notify({ type: 'success', title: 'Alignement terminé', message: 'Demo A' });
    });
    // the pop-up shows while the panel is closed
    expect((await screen.findByText('Alignement terminé')).textContent).toBe('Alignement terminé');
    await user.click(screen.getByRole('button', { name: 'Notifications' }));
    const menu = await screen.findByRole('menu');
    // open: the pop-up is gone, the panel lists the notification and both actions
    await waitFor(() => expect(screen.getAllByText('Alignement terminé')).toHaveLength(1));
    expect(menu.contains(screen.getByText('Alignement terminé'))).toBe(true);
    expect(menu.contains(screen.getByRole('button', { name: 'Tout marquer comme lu' }))).toBe(true);
    expect(menu.contains(screen.getByRole('button', { name: 'Tout effacer' }))).toBe(true);
    // a notification that arrives while the panel is open goes to the list, not to a pop-up
    act(() => {
      useUiStore.getState().notify({ type: 'error', title: 'Alignement échoué' });
    });
    await waitFor(() => expect(menu.contains(screen.getByText('Alignement échoué'))).toBe(true));
    expect(screen.getAllByText('Alignement échoué')).toHaveLength(1);
    // and closing the panel does not replay it as a pop-up
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(screen.queryByText('Alignement échoué')).toBeNull();
  });
});
