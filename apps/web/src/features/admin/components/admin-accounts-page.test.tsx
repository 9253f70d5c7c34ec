import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminUser } from '@tazamun/contracts/auth';
import { renderApp } from '../../../test/render-app.tsx';
import { makeUser, serveShell, startTestApi } from '../../../test/test-api.ts';
import type { TestApi } from '../../../test/test-api.ts';
import { setTokens } from '../../../lib/token-storage.ts';
import { expectToast } from '../../../test/toasts.ts';

const waiting = (id: string, email: string): AdminUser => ({
  ...makeUser({ id, email, name: email.split('@')[0]!, is_approved: false }),
  status: 'pending',
  last_login_at: null,
});

let api: TestApi;
beforeEach(async () => {
  api = await startTestApi();
  setTokens({ access: 'a', refresh: 'r' });
});
afterEach(async () => {
  await api.close();
});

describe('admin accounts page', () => {
  it('lists the waiting list; approves, rejects after confirming, and sets a daily quota', async () => {
    serveShell(api, makeUser({ role: 'admin' }));
    let pending = [waiting('u2', 'omar@example.org'), waiting('u3', 'sara@example.org')];
    api.route('GET', '/api/admin/users/', () => ({ status: 200, body: { users: pending } }));
    const answer = (id: string, status: AdminUser['status']) => {
      const u = pending.find((x) => x.id === id)!;
      pending = pending.filter((x) => x.id !== id);
      return { status: 200, body: { user: { ...u, status, is_approved: status === 'approved' } } };
    };
    api.route('POST', '/api/admin/users/u2/approve/', () => answer('u2', 'approved'));
    api.route('POST', '/api/admin/users/u3/reject/', () => answer('u3', 'rejected'));
    api.route('PATCH', '/api/admin/users/u3/quota/', (req) => {
      const limit = (req.body as { daily_limit: number }).daily_limit;
      pending = pending.map((u) => (u.id === 'u3' ? { ...u, quota: { ...u.quota, daily_limit: limit } } : u));
      return { status: 200, body: { user: pending.find((u) => u.id === 'u3') } };
    });

    await renderApp('/admin/accounts', { apiUrl: api.url, language: 'en' });
    const list = await screen.findByTestId('admin-accounts');
    expect(screen.getByRole('button', { name: 'Waiting' }).getAttribute('aria-pressed')).toBe('true');
    const sara = list.querySelector('[data-account="sara@example.org"]') as HTMLElement;
    const quota = within(sara).getByLabelText('Alignments per day for sara@example.org');
    await userEvent.clear(quota);
    await userEvent.type(quota, '25');
    await userEvent.click(within(sara).getByRole('button', { name: 'Set' }));
    await expectToast('success', 'sara@example.org may now run 25 alignments a day.');

    const omar = list.querySelector('[data-account="omar@example.org"]') as HTMLElement;
    await userEvent.click(within(omar).getByRole('button', { name: 'Approve' }));
    await expectToast('success', 'omar@example.org is approved and was told by e-mail.');
    await waitFor(() => expect(list.querySelector('[data-account="omar@example.org"]')).toBeNull());

    await userEvent.click(
      within(list.querySelector('[data-account="sara@example.org"]') as HTMLElement).getByRole('button', {
        name: 'Reject',
      }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('sara@example.org will be signed out');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await screen.findByText('Nobody is waiting for approval.');
    expect(api.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([
      'PATCH /api/admin/users/u3/quota/',
      'POST /api/admin/users/u2/approve/',
      'POST /api/admin/users/u3/reject/',
    ]);
  });

  it('is for administrators only, and reachable from their account menu', async () => {
    serveShell(api, makeUser({ role: 'admin' }));
    api.route('GET', '/api/admin/users/', () => ({ status: 200, body: { users: [] } }));
    await renderApp('/dashboard', { apiUrl: api.url, language: 'en' });
    await userEvent.click(await screen.findByRole('button', { name: 'Account menu' }));
    const menu = await screen.findByRole('menu');
    for (const name of ['New alignment', 'Projects', 'Pronunciation lexicon', 'Accounts', 'Jobs'])
      within(menu).getByRole('menuitem', { name });
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Accounts' }));
    await screen.findByRole('heading', { name: 'Accounts', level: 1 });
  });

  it('a user who is not an administrator sees a refusal, and no admin entries in the menu', async () => {
    serveShell(api, makeUser());
    await renderApp('/admin/accounts', { apiUrl: api.url, language: 'en' });
    await screen.findByText('This page is for administrators.');
    // the header links to the screens an approved account works from
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    within(nav).getByRole('link', { name: 'Projects' });
    within(nav).getByRole('link', { name: 'New alignment' });
    await userEvent.click(screen.getByRole('button', { name: 'Account menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).queryByRole('menuitem', { name: 'Accounts' })).toBeNull();
  });
});
