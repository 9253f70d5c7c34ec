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

  it('detects the language of the text as it is typed and warns when it is not the one chosen', async () => {
    await renderApp('/upload', { apiUrl: api.url, language: 'fr' });
    const text = await screen.findByLabelText('Texte prononcé dans l’enregistrement');
    const language = screen.getByLabelText('Langue (ISO 639-3)');
    fireEvent.change(language, { target: { value: 'eng' } });
    fireEvent.change(text, {
      target: { value: 'The birch canoe slid on the smooth planks and the boy was there when the sun rose.' },
    });
    expect(screen.getByTestId('detected-language').textContent).toContain('anglais');
    expect(screen.queryByTestId('language-warning')).toBeNull();
    // the same English text with Arabic chosen: a warning before submitting
    fireEvent.change(language, { target: { value: 'ara' } });
    expect(screen.getByTestId('language-warning').textContent).toBe(
      'Ce texte ressemble à anglais, pas à la langue choisie (arabe). Vérifiez la langue avant d’aligner : avec la mauvaise, les mots sont mal placés.',
    );
    // Arabic text with Arabic chosen: detected as Standard Arabic (arb), no warning
    fireEvent.change(text, {
      target: { value: 'عِنْدَمَا ذَهَبْتُ إِلَى السُّوقِ اشْتَرَيْتُ الكَثِيرَ مِنَ الفَاكِهَةِ' },
    });
    expect(screen.queryByTestId('language-warning')).toBeNull();
  });
});
