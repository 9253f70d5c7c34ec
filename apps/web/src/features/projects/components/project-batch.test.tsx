import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AlignmentSummary } from '@tazamun/contracts/alignments';
import { renderApp } from '../../../test/render-app.tsx';
import { makeUser, serveShell, startTestApi } from '../../../test/test-api.ts';
import type { TestApi } from '../../../test/test-api.ts';
import { setTokens } from '../../../lib/token-storage.ts';

const AT = '2026-03-01T10:00:00.000Z';

function recording(id: string, fileName: string, over: Partial<AlignmentSummary>): AlignmentSummary {
  return {
    id,
    title: fileName.replace(/\.wav$/, ''),
    file_name: fileName,
    file_size: 96_000,
    language: 'eng',
    detected_language: 'eng',
    verdict: null,
    status: 'completed',
    step: null,
    progress: 100,
    error: null,
    options: {
      precision: 'standard',
      normalize: true,
      remove_fillers: false,
      numbers_to_words: true,
      engine: 'auto',
      input_kind: 'orthography',
    },
    duration: 3,
    confidence: 0.9,
    wer: 0,
    cer: 0,
    words: 11,
    coverage: 1,
    alignment_time: 1,
    processing_speed: 3,
    engine: 'hmm',
    project_id: 'p1',
    adapted_model: null,
    shared: false,
    created_at: AT,
    updated_at: AT,
    completed_at: AT,
    ...over,
  };
}

let api: TestApi;
beforeEach(async () => {
  api = await startTestApi();
  serveShell(api, makeUser());
  api.route('GET', '/api/projects/', () => ({
    status: 200,
    body: {
      count: 1,
      results: [
        {
          id: 'p1',
          name: 'Corpus',
          description: '',
          alignments_count: 2,
          completed_count: 1,
          total_duration: 3,
          mean_confidence: 0.9,
          use_adapted_model: false,
          created_at: AT,
          updated_at: AT,
        },
      ],
    },
  }));
  const rows = [
    recording('a1', 'utt0.wav', { verdict: 'good' }),
    recording('a2', 'utt1.wav', {
      status: 'failed',
      verdict: null,
      confidence: null,
      coverage: null,
      completed_at: null,
      error: { code: 'engine_failed', detail: 'The engine failed twice.', quota_refunded: true },
    }),
  ];
  api.route('GET', '/api/alignments/', () => ({
    status: 200,
    body: { count: 2, page: 1, page_size: 100, next: null, previous: null, results: rows },
  }));
  api.route('GET', '/api/projects/p1/models/', () => ({
    status: 200,
    body: {
      count: 0,
      results: [],
      storage: { used_bytes: 0, limit_bytes: 200 * 1024 * 1024 },
      min_corpus_seconds: 60,
    },
  }));
  api.route('POST', '/api/alignments/a2/retry/', () => ({
    status: 202,
    body: { ...rows[1]!, status: 'queued', error: null },
  }));
  setTokens({ access: 'a', refresh: 'r' });
});
afterEach(async () => {
  await api.close();
});

describe('the batch table of a project', () => {
  it('shows each recording’s verdict and retries the failed ones with one call each', async () => {
    await renderApp('/projects', { apiUrl: api.url, language: 'en' });
    await userEvent.click(await screen.findByRole('button', { name: /Corpus/ }));
    const table = await screen.findByTestId('batch-table');
    const good = within(table).getByText('utt0.wav').closest('tr')!;
    expect(within(good).getByTestId('verdict-badge').getAttribute('data-verdict')).toBe('good');
    const failed = within(table).getByText('utt1.wav').closest('tr')!;
    expect(within(failed).getByText('The engine failed twice.').tagName).toBe('TD');

    // the batch's language is chosen from the language picker, starting from the language of the
    // project's recordings (English here), not the account's default (Arabic)
    const picker = screen.getByRole('combobox', { name: 'Language' }) as HTMLInputElement;
    expect(picker.value).toBe('eng');

    await userEvent.click(screen.getByRole('button', { name: 'Retry the failed recordings (1)' }));
    await waitFor(() =>
      expect(api.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([
        '/api/alignments/a2/retry/',
      ]),
    );
    await screen.findByText('1 recording queued again.');
  });

  it('asks for the recordings’ language in an empty project instead of assuming the account’s', async () => {
    api.route('GET', '/api/alignments/', () => ({
      status: 200,
      body: { count: 0, page: 1, page_size: 100, next: null, previous: null, results: [] },
    }));
    await renderApp('/projects?project=p1', { apiUrl: api.url, language: 'en' });
    const picker = (await screen.findByRole('combobox', { name: 'Language' })) as HTMLInputElement;
    expect(picker.value).toBe('');
    expect(screen.getByText('Choose the language the recordings are in first.')).toBeTruthy();
    const zip = screen.getByLabelText('Choose a zip') as HTMLInputElement;
    expect(zip.disabled).toBe(true);
    await userEvent.type(picker, 'eng');
    await userEvent.tab();
    await waitFor(() => expect(zip.disabled).toBe(false));
  });

  it('follows a recording in the project’s list from Processing to Completed without a reload', async () => {
    let status: AlignmentSummary['status'] = 'processing';
    api.route('GET', '/api/alignments/', () => ({
      status: 200,
      body: {
        count: 1,
        page: 1,
        page_size: 100,
        next: null,
        previous: null,
        results: [
          recording('a1', 'utt0.wav', {
            status,
            verdict: status === 'completed' ? 'good' : null,
            progress: status === 'completed' ? 100 : 40,
            completed_at: status === 'completed' ? AT : null,
          }),
        ],
      },
    }));
    await renderApp('/projects?project=p1', { apiUrl: api.url, language: 'en' });
    const list = await screen.findByTestId('alignment-list');
    await waitFor(() => expect(list.textContent).toMatch(/Processing/));
    const reads = api.requests.filter((r) => r.method === 'GET' && r.path === '/api/alignments/').length;
    status = 'completed';
    // no click, no navigation: the list reads itself again while a recording in it is still active
    await waitFor(() => expect(screen.getByTestId('alignment-list').textContent).toMatch(/Completed/), {
      timeout: 8000,
    });
    expect(
      api.requests.filter((r) => r.method === 'GET' && r.path === '/api/alignments/').length,
    ).toBeGreaterThan(reads);
  }, 15_000);
});
