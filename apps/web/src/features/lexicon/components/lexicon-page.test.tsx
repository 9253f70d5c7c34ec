import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LexiconEntry } from '@tazamun/contracts/lexicon';
import { renderApp } from '../../../test/render-app.tsx';
import { makeUser, serveShell, startTestApi } from '../../../test/test-api.ts';
import type { TestApi } from '../../../test/test-api.ts';
import { setTokens } from '../../../lib/token-storage.ts';
import { expectToast } from '../../../test/toasts.ts';

const AT = '2026-03-01T10:00:00.000Z';
const entry = (id: string, language: string, word: string, ipa: string): LexiconEntry => ({
  id,
  language,
  word,
  ipa,
  created_at: AT,
  updated_at: AT,
});

let api: TestApi;
let entries: LexiconEntry[];
beforeEach(async () => {
  api = await startTestApi();
  serveShell(
    api,
    makeUser({ preferences: { ...makeUser().preferences, default_alignment_language: 'eng' } }),
  );
  entries = [
    entry('e1', 'eng', 'tazamun', 't a z a m u n'),
    entry('e2', 'eng', 'zorblax', 'z ɔ ɹ b l æ k s'),
    entry('e3', 'ara', 'تزامن', 't a z a m u n'),
  ];
  api.route('GET', '/api/languages/', () => ({
    status: 200,
    body: {
      count: 2,
      engines: [{ id: 'hmm', available: true, detail: 'CMU Sphinx' }],
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
        {
          code: 'eng',
          iso1: 'en',
          name: 'English',
          script: 'Latn',
          rtl: false,
          routes: [],
          engines: ['hmm'],
          native_model: true,
        },
      ],
    },
  }));
  api.route('GET', '/api/lexicon/', () => ({
    status: 200,
    body: { count: entries.length, results: entries },
  }));
  api.route('POST', '/api/lexicon/preview/', (req) => {
    const body = req.body as { text: string; all_words: boolean; ignore_lexicon: boolean };
    expect([body.all_words, body.ignore_lexicon]).toEqual([true, true]);
    return {
      status: 200,
      body: {
        language: 'eng',
        words: body.text.split(' ').map((w) => ({ word: w, source: 'espeak', ipa: `${w[0]} ə` })),
      },
    };
  });
  api.route('POST', '/api/lexicon/', (req) => {
    const b = req.body as { language: string; word: string; ipa: string };
    const e = entry(`n${entries.length}`, b.language, b.word.toLowerCase(), b.ipa);
    entries = [...entries.filter((x) => !(x.word === e.word && x.language === e.language)), e];
    return { status: 201, body: e };
  });
  api.route('DELETE', '/api/lexicon/e2/', () => {
    entries = entries.filter((x) => x.id !== 'e2');
    return { status: 204 };
  });
  api.route('POST', '/api/lexicon/import/', () => ({
    status: 200,
    body: {
      imported: 1,
      skipped: [{ line: 2, reason: 'no pronunciation after the word' }],
      skipped_count: 1,
    },
  }));
  api.route('GET', '/api/lexicon/export/', () => ({ status: 200, body: 'tazamun\tt a z a m u n\n' }));
  setTokens({ access: 'a', refresh: 'r' });
});
afterEach(async () => {
  await api.close();
});

describe('the lexicon page', () => {
  it('lists a language’s entries with what the aligner would say without them, and searches them', async () => {
    await renderApp('/lexicon', { apiUrl: api.url, language: 'en' });
    await screen.findByRole('heading', { name: 'Pronunciation lexicon', level: 1 });
    const list = await screen.findByTestId('lexicon-entries');
    expect([...list.querySelectorAll('[data-entry]')].map((e) => e.getAttribute('data-entry'))).toEqual([
      'tazamun',
      'zorblax',
    ]);
    const row = list.querySelector('[data-entry="tazamun"]') as HTMLElement;
    await waitFor(() => expect(within(row).getByTestId('entry-preview').textContent).toContain('t ə'));
    expect(within(row).getByTestId('entry-preview').textContent).toContain('eSpeak');
    // languages with entries, each with its count
    await screen.findByRole('button', { name: 'Arabic · 1' });
    await userEvent.type(screen.getByLabelText('Search a word or a pronunciation'), 'zor');
    expect([...list.querySelectorAll('[data-entry]')].map((e) => e.getAttribute('data-entry'))).toEqual([
      'zorblax',
    ]);
  });

  it('adds, edits and deletes entries; imports and exports MFA dictionaries', async () => {
    await renderApp('/lexicon', { apiUrl: api.url, language: 'en' });
    const list = await screen.findByTestId('lexicon-entries');
    // add
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Write the word.')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Word'), 'Greasy');
    await userEvent.type(screen.getByLabelText('Pronunciation (IPA)'), 'ɡ ɹ iː z i');
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    await expectToast('success', '“greasy” is saved.');
    await within(list).findByText('greasy');
    // edit
    const ipa = screen.getByLabelText('Pronunciation of “tazamun” (IPA)');
    await userEvent.clear(ipa);
    await userEvent.type(ipa, 't a z a m aɪ n');
    await userEvent.click(
      within(list.querySelector('[data-entry="tazamun"]') as HTMLElement).getByRole('button', {
        name: 'Save',
      }),
    );
    await waitFor(() =>
      expect(
        api.requests.filter((r) => r.method === 'POST' && r.path === '/api/lexicon/').map((r) => r.body),
      ).toEqual([
        { language: 'eng', word: 'Greasy', ipa: 'ɡ ɹ iː z i' },
        { language: 'eng', word: 'tazamun', ipa: 't a z a m aɪ n' },
      ]),
    );
    // delete, after confirming
    await userEvent.click(screen.getByRole('button', { name: 'Delete “zorblax”' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(list.querySelector('[data-entry="zorblax"]')).toBeNull());
    // import: the file goes as text/tab-separated-values to the chosen language
    fireEvent.change(screen.getByTestId('lexicon-import-input'), {
      target: { files: [new File(['greasy\tɡ ɹ iː s i\nbroken\n'], 'words.dict', { type: 'text/plain' })] },
    });
    await waitFor(() => expect(api.requests.some((r) => r.path === '/api/lexicon/import/')).toBe(true));
    await screen.findByText('Line 2: no pronunciation after the word');
    const sent = api.requests.find((r) => r.path === '/api/lexicon/import/')!;
    expect(sent.body).toBe('greasy\tɡ ɹ iː s i\nbroken\n');
    // export
    await userEvent.click(screen.getByRole('button', { name: 'Export as a dictionary' }));
    await waitFor(() => expect(api.requests.some((r) => r.path === '/api/lexicon/export/')).toBe(true));
  });
});
