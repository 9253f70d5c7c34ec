import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AdminJob } from '@tazamun/contracts/admin-jobs';
import { renderApp } from '../../../test/render-app.tsx';
import { makeUser, serveShell, startTestApi } from '../../../test/test-api.ts';
import type { TestApi } from '../../../test/test-api.ts';
import { setTokens } from '../../../lib/token-storage.ts';
import { expectToast } from '../../../test/toasts.ts';

function job(overrides: Partial<AdminJob>): AdminJob {
  return {
    id: 'j1',
    kind: 'align',
    status: 'failed',
    alignment_id: 'a1',
    video_id: null,
    model_id: null,
    title: 'Interview 3',
    language: 'ara',
    user_email: 'reem@example.org',
    attempts: 1,
    max_attempts: 3,
    worker_id: 'vm:4242:ab12cd34',
    error_code: 'timeout',
    last_error: 'timed out after 90000 ms',
    cancel_requested: false,
    created_at: '2026-11-24T10:00:00.000Z',
    started_at: '2026-11-24T10:00:01.000Z',
    finished_at: '2026-11-24T10:01:31.000Z',
    updated_at: '2026-11-24T10:01:31.000Z',
    lease_until: null,
    ...overrides,
  };
}

/** The cell of a job's row under the column with this heading. */
function cell(row: HTMLElement, column: string): HTMLElement {
  const index = screen.getAllByRole('columnheader').findIndex((h) => h.textContent === column);
  expect(index, `no column "${column}"`).toBeGreaterThanOrEqual(0);
  return within(row).getAllByRole('cell')[index]!;
}

let api: TestApi;

beforeEach(async () => {
  api = await startTestApi();
  setTokens({ access: 'a', refresh: 'r' });
});

afterEach(async () => {
  await api.close();
});

describe('admin jobs page', () => {
  it('lists failed and running jobs with their error, worker and attempts; retry and cancel', async () => {
    serveShell(api, makeUser({ role: 'admin' }));
    const failed = job({});
    const running = job({
      id: 'j2',
      status: 'processing',
      title: 'Lecture',
      error_code: null,
      last_error: null,
      finished_at: null,
      worker_id: 'vm:4243:ef56ab78',
    });
    api.route('GET', '/api/admin/jobs/', () => ({ status: 200, body: { jobs: [failed, running] } }));
    api.route('POST', '/api/admin/jobs/j1/retry/', () => ({
      status: 200,
      body: { job: { ...failed, status: 'queued', attempts: 0, error_code: null }, result: 'retried' },
    }));
    api.route('POST', '/api/admin/jobs/j2/cancel/', () => ({
      status: 200,
      body: { job: { ...running, cancel_requested: true }, result: 'requested' },
    }));
    await renderApp('/admin/jobs', { apiUrl: api.url, language: 'en' });

    const row1 = await screen.findByTestId('job-j1');
    expect(cell(row1, 'Status').textContent).toBe('Failed');
    expect([...cell(row1, 'Error').children].map((line) => line.textContent)).toEqual([
      'timeout',
      'timed out after 90000 ms',
    ]);
    expect(cell(row1, 'Worker').textContent).toBe('vm:4242:ab12cd34');
    expect(cell(row1, 'Attempts').textContent).toBe('1/3');
    expect(within(row1).queryByRole('button', { name: 'Cancel' })).toBeNull();
    const row2 = screen.getByTestId('job-j2');
    expect(cell(row2, 'Status').textContent).toBe('Running');
    expect(cell(row2, 'Worker').textContent).toBe('vm:4243:ef56ab78');
    expect(cell(row2, 'Error').textContent).toBe('');
    expect(within(row2).queryByRole('button', { name: 'Retry' })).toBeNull();

    fireEvent.click(within(row1).getByRole('button', { name: 'Retry' }));
    await expectToast('success', 'The job is queued again.');
    fireEvent.click(within(row2).getByRole('button', { name: 'Cancel' }));
    await expectToast('success', 'Cancel requested; its worker stops it shortly.');
    const posts = api.requests.filter((r) => r.method === 'POST').map((r) => r.path);
    expect(posts).toEqual(['/api/admin/jobs/j1/retry/', '/api/admin/jobs/j2/cancel/']);
  });

  it('filters by status through the API, in Arabic', async () => {
    serveShell(api, makeUser({ role: 'admin' }));
    api.route('GET', '/api/admin/jobs/', () => ({ status: 200, body: { jobs: [] } }));
    await renderApp('/admin/jobs', { apiUrl: api.url, language: 'ar' });
    // the empty state is all the list shows: no table, no other text
    const empty = await screen.findByText('لا توجد مهمة في هذه الحالة.');
    expect(empty.parentElement?.textContent).toBe('لا توجد مهمة في هذه الحالة.');
    expect(screen.queryByRole('table')).toBeNull();
    const gets = () => api.requests.filter((r) => r.method === 'GET' && r.path === '/api/admin/jobs/').length;
    const before = gets();
    const completed = screen.getByRole('button', { name: 'مكتملة' });
    fireEvent.click(completed);
    // another status is another list from the API (the test server records paths without the query)
    await waitFor(() => expect(gets()).toBe(before + 1));
    expect(completed.getAttribute('aria-pressed')).toBe('true');
  });

  it('names the kind of job and its language in the interface language, not by their codes', async () => {
    serveShell(api, makeUser({ role: 'admin' }));
    api.route('GET', '/api/languages/', () => ({
      status: 200,
      body: {
        count: 1,
        engines: [{ id: 'hmm', available: true, detail: '' }],
        results: [
          {
            code: 'ara',
            iso1: 'ar',
            name: 'Arabic',
            script: 'Arab',
            rtl: true,
            routes: [],
            engines: ['hmm'],
            native_model: false,
          },
        ],
      },
    }));
    api.route('GET', '/api/admin/jobs/', () => ({
      status: 200,
      body: { jobs: [job({}), job({ id: 'j3', kind: 'realign' })] },
    }));
    await renderApp('/admin/jobs', { apiUrl: api.url, language: 'ar' });
    const row = await screen.findByTestId('job-j1');
    await waitFor(() => expect(cell(row, 'المحاذاة').textContent).toContain('محاذاة، العربية'));
    expect(cell(screen.getByTestId('job-j3'), 'المحاذاة').textContent).toContain('مقطع أُعيدت محاذاته');
  });

  it('tells a non-administrator the page is not for them, without asking the API', async () => {
    serveShell(api, makeUser());
    await renderApp('/admin/jobs', { apiUrl: api.url, language: 'fr' });
    const refusal = await screen.findByText('Cette page est réservée aux administrateurs.');
    expect(refusal.closest('[role="alert"]')?.textContent).toBe(
      'Cette page est réservée aux administrateurs.',
    );
    // nothing of the page itself: no title, no filters, no list
    expect(screen.queryByRole('heading', { name: 'Tâches', level: 1 })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Actualiser' })).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
    expect(api.requests.some((r) => r.path.startsWith('/api/admin/'))).toBe(false);
  });
});
