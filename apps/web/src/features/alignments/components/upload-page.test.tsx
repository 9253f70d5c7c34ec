import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../../test/render-app.tsx';
import { makeUser, serveShell, startTestApi } from '../../../test/test-api.ts';
import type { TestApi } from '../../../test/test-api.ts';
import { setTokens } from '../../../lib/token-storage.ts';

let api: TestApi;
beforeEach(async () => {
  api = await startTestApi();
  serveShell(api, makeUser());
  api.route('GET', '/api/languages/', () => ({
    status: 200,
    body: {
      count: 1,
      engines: [],
      results: [
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
  setTokens({ access: 'a', refresh: 'r' });
});
afterEach(async () => {
  await api.close();
});

describe('upload studio', () => {
  it('refuses a file that is not MP3, WAV, M4A or OGG and sends nothing without audio and text', async () => {
    await renderApp('/upload', { apiUrl: api.url, language: 'en' });
    await screen.findByRole('heading', { name: 'New alignment', level: 1 });
    const input = screen.getByTestId('audio-input');
    fireEvent.change(input, {
      target: { files: [new File(['not audio'], 'notes.pdf', { type: 'application/pdf' })] },
    });
    expect(await screen.findByText('Invalid file type. Accepted formats: MP3, WAV, M4A, OGG.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Start the alignment' }));
    expect(await screen.findByText('Choose an audio file.')).toBeTruthy();
    expect(screen.getByText('The transcript is required.')).toBeTruthy();
    expect(api.requests.some((r) => r.path === '/api/alignments/')).toBe(false);
  });

  it('counts characters and words of the transcript', async () => {
    await renderApp('/upload', { apiUrl: api.url, language: 'en' });
    const text = await screen.findByLabelText('Text spoken in the recording');
    await userEvent.type(text, 'the quick  brown fox');
    expect(screen.getByTestId('text-counts').textContent).toBe('20 characters · 4 words');
  });

  it('previews the words pronounced by eSpeak and saves a corrected IPA to the lexicon', async () => {
    api.route('POST', '/api/lexicon/preview/', () => ({
      status: 200,
      body: { language: 'eng', words: [{ word: 'zorblax', source: 'espeak', ipa: 'z ɔːɹ b l æ k s' }] },
    }));
    api.route('POST', '/api/lexicon/', () => ({
      status: 201,
      body: {
        id: 'e1',
        language: 'eng',
        word: 'zorblax',
        ipa: 'zɔrblaks',
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      },
    }));
    await renderApp('/upload', { apiUrl: api.url, language: 'en' });
    const text = await screen.findByLabelText('Text spoken in the recording');
    await userEvent.type(text, 'Zorblax spoke');
    await userEvent.click(screen.getByRole('button', { name: 'Check pronunciations' }));
    const ipa = await screen.findByLabelText('IPA of zorblax');
    expect((ipa as HTMLInputElement).value).toBe('z ɔːɹ b l æ k s');
    expect(screen.getByText('eSpeak').tagName).toBe('TD');
    await userEvent.clear(ipa);
    await userEvent.type(ipa, 'zɔrblaks');
    await userEvent.click(screen.getByRole('button', { name: 'Save to my lexicon' }));
    expect(await screen.findByText('“zorblax” saved to your lexicon.')).toBeTruthy();
    const sent = api.requests.filter((r) => r.path === '/api/lexicon/' && r.method === 'POST');
    expect(sent.map((r) => r.body)).toEqual([{ language: 'ara', word: 'zorblax', ipa: 'zɔrblaks' }]);
    expect(screen.queryByLabelText('IPA of zorblax')).toBeNull();
  });
});
