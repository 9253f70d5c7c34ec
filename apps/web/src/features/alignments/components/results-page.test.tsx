import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AlignmentDetail } from '@tazamun/contracts/alignments';
import type { Quality } from '@tazamun/contracts/alignment-result';
import { renderApp } from '../../../test/render-app.tsx';
import { makeUser, serveShell, startTestApi } from '../../../test/test-api.ts';
import type { TestApi } from '../../../test/test-api.ts';
import { setTokens } from '../../../lib/token-storage.ts';

const WORDS = ['she', 'had', 'your'];
const EXP = Math.floor(Date.now() / 1000) + 3600;

function completedAlignment(quality: Quality = { verdict: 'good', reasons: [] }): AlignmentDetail {
  const at = '2026-03-01T10:00:00.000Z';
  return {
    id: 'a1',
    title: 'Dark suit',
    file_name: 'clip.wav',
    file_size: 96_000,
    language: 'eng',
    detected_language: 'eng',
    verdict: quality.verdict,
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
    duration: 1.5,
    confidence: 0.9,
    wer: null,
    cer: null,
    words: 3,
    coverage: 1,
    alignment_time: 0.4,
    processing_speed: 3.75,
    engine: 'hmm',
    project_id: null,
    adapted_model: null,
    shared: false,
    created_at: at,
    updated_at: at,
    completed_at: at,
    original_text: WORDS.join(' '),
    processed_text: WORDS.join(' '),
    video: null,
    result: {
      schema_version: 1,
      language: 'eng',
      engine: { backend: 'hmm', model: 'test', version: '1', precision: 'standard', route: 'dictionary' },
      audio: {
        duration: 1.5,
        sample_rate: 16_000,
        channels: 1,
        format: 'wav',
        peak_dbfs: -3,
        clipping_ratio: 0,
        silence_ratio: 0.1,
      },
      text: { original: WORDS.join(' '), processed: WORDS.join(' '), input_kind: 'orthography' },
      words: WORDS.map((word, index) => ({
        index,
        word,
        normalized: word,
        start: index * 0.5,
        end: index * 0.5 + 0.4,
        duration: 0.4,
        confidence: 0.9,
        status: 'aligned' as const,
        phones: [
          { phone: 'ʃ', model_phone: 'SH', start: index * 0.5, end: index * 0.5 + 0.2, confidence: 0.9 },
          {
            phone: 'i',
            model_phone: 'IY',
            start: index * 0.5 + 0.2,
            end: index * 0.5 + 0.4,
            confidence: 0.9,
          },
        ],
        char_start: index * 4,
        char_end: index * 4 + word.length,
      })),
      segments: [
        { index: 0, text: WORDS.join(' '), start: 0, end: 1.4, word_start: 0, word_end: 3, confidence: 0.9 },
      ],
      metrics: {
        coverage: 1,
        mean_confidence: 0.9,
        wer: null,
        cer: null,
        wer_method: 'none',
        phone_error_rate: 0.4,
        speech_seconds: 1.2,
        untranscribed_speech_seconds: 0,
        words_total: 3,
        words_aligned: 3,
        audio_duration: 1.5,
        processing_time: 0.4,
        real_time_factor: 0.27,
      },
      detected_language: 'eng',
      quality,
      warnings: [],
    },
  };
}

let api: TestApi;
beforeEach(async () => {
  api = await startTestApi();
  serveShell(api, makeUser());
  api.route('GET', '/api/alignments/a1/', () => ({ status: 200, body: completedAlignment() }));
  api.route('GET', '/api/alignments/a1/audio-url/', () => ({
    status: 200,
    body: {
      url: `/api/alignments/a1/audio/?sig=c2lnbmVk&exp=${EXP}`,
      expires_at: new Date(EXP * 1000).toISOString(),
    },
  }));
  setTokens({ access: 'a', refresh: 'r' });
});
afterEach(async () => {
  await api.close();
});

describe('results viewer audio', () => {
  it('streams the owner’s audio from a signed URL instead of downloading it with the token', async () => {
    await renderApp('/results/a1', { apiUrl: api.url, language: 'en' });
    await screen.findByRole('heading', { name: 'Dark suit', level: 1 });
    const audio = await screen.findByTestId('audio-stream');
    expect(audio.getAttribute('src')).toBe(`${api.url}/api/alignments/a1/audio/?sig=c2lnbmVk&exp=${EXP}`);
    expect(audio.getAttribute('preload')).toBe('metadata');

    const signing = api.requests.filter((r) => r.path === '/api/alignments/a1/audio-url/');
    expect(signing).toHaveLength(1);
    expect(signing[0]?.authorization).toBe('Bearer a');
    // Whatever reads the audio itself (the waveform's fetch) goes by the signature, never the token.
    await waitFor(() => expect(api.requests.some((r) => r.path === '/api/alignments/a1/audio/')).toBe(true));
    for (const r of api.requests.filter((q) => q.path === '/api/alignments/a1/audio/'))
      expect(r.authorization).toBeUndefined();
  });
});

describe('results viewer player', () => {
  it('shows the recording’s length before its metadata arrive; speed choices in the interface’s digits', async () => {
    await renderApp('/results/a1', { apiUrl: api.url, language: 'ar' });
    await screen.findByTestId('audio-stream');
    // jsdom never loads the audio: the length comes from the result (1.5 s, rounded as the header rounds
    // it, so a 0.99-s clip is not 0:00 long), timestamps in Western digits
    expect(screen.getByText('0:00 / 0:02')).toBeTruthy();
    const speeds = [...document.querySelectorAll('option')]
      .map((o) => o.textContent ?? '')
      .filter((t) => t.endsWith('×'));
    expect(speeds).toContain('١×');
    expect(speeds.length).toBeGreaterThan(2);
    expect(speeds.every((t) => !/[0-9]/.test(t))).toBe(true);
  });
});

describe('results verdict', () => {
  it('a good result: green badge and banner without things to check; the word table shows IPA phones', async () => {
    await renderApp('/results/a1', { apiUrl: api.url, language: 'en' });
    const banner = await screen.findByTestId('quality-banner');
    expect(banner.dataset.verdict).toBe('good');
    expect(banner.textContent).toContain('The transcript fits the speech');
    expect(banner.textContent).not.toContain('What to check');
    expect(screen.getByTestId('verdict-badge').textContent).toBe('Good');
    screen.getByRole('tab', { name: 'Word table' }).focus();
    screen.getByRole('tab', { name: 'Word table' }).click();
    const phones = await screen.findAllByTestId('word-phones');
    expect(phones.map((p) => p.textContent)).toEqual(['ʃ i', 'ʃ i', 'ʃ i']);
    expect(phones[0]?.getAttribute('title')).toBe('SH IY');
  });

  it('phones the model had no phone of its own for are dotted, say their stand-in, and the verdict notes it (ar, fr)', async () => {
    const detail = completedAlignment({
      verdict: 'good',
      reasons: [{ code: 'phones_approximated', message: 'x', value: 46.2 }],
    });
    const first = detail.result!.words[0]!;
    first.phones = [
      { phone: 'ʔ', model_phone: '', start: 0, end: 0.02, approximated: true },
      { phone: 'ʕ', model_phone: 'HH', start: 0.02, end: 0.25, confidence: 0.7, approximated: true },
      { phone: 'i', model_phone: 'IY', start: 0.25, end: 0.5, confidence: 0.9 },
    ];
    api.route('GET', '/api/alignments/a1/', () => ({ status: 200, body: detail }));
    await renderApp('/results/a1', { apiUrl: api.url, language: 'fr' });
    const banner = await screen.findByTestId('quality-banner');
    expect(banner.textContent).toContain(
      '46,2 % des phones n’ont pas d’équivalent dans le modèle acoustique',
    );
    screen.getByRole('tab', { name: 'Tableau des mots' }).focus();
    screen.getByRole('tab', { name: 'Tableau des mots' }).click();
    const phones = await screen.findAllByTestId('word-phones');
    expect(phones[0]?.textContent).toBe('ʔ ʕ i');
    const marked = phones[0]!.querySelectorAll('[data-approximated]');
    expect([...marked].map((m) => m.getAttribute('data-approximated'))).toEqual(['none', 'HH']);
    expect(marked[1]?.getAttribute('title')).toBe(
      'Pas de phone propre dans le modèle acoustique : évalué comme HH',
    );
    expect(screen.getByTestId('approximated-legend').textContent).toContain('Phones en pointillé');
  });

  it('a mismatch: red banner in Arabic with the reasons and what to check', async () => {
    api.route('GET', '/api/alignments/a1/', () => ({
      status: 200,
      body: completedAlignment({
        verdict: 'mismatch',
        reasons: [
          { code: 'transcript_mismatch', message: 'x', value: 0.82 },
          { code: 'language_mismatch', message: 'x' },
        ],
      }),
    }));
    await renderApp('/results/a1', { apiUrl: api.url, language: 'ar' });
    const banner = await screen.findByTestId('quality-banner');
    expect(banner.dataset.verdict).toBe('mismatch');
    expect(banner.querySelector('[role="alert"]')).not.toBeNull();
    expect(banner.textContent).toContain('النص لا يطابق الصوت');
    // the estimated WER as a percentage in Arabic-Indic digits, as the metrics tab shows it
    expect(banner.querySelector('[data-reason="transcript_mismatch"]')?.textContent).toContain('٨٢٪');
    expect(banner.querySelector('[data-reason="language_mismatch"]')?.textContent).toContain('eng');
    expect(banner.textContent).toContain('ما يجب التحقق منه');
    expect(screen.getByTestId('verdict-badge').textContent).toBe('غير مطابق');
  });

  it.each([
    ['en', 1, '1 word was not found in the audio.', '1 placed word fits its audio poorly.'],
    ['en', 3, '3 words were not found in the audio.', '3 placed words fit their audio poorly.'],
    ['ar', 1, 'لم يُعثر على كلمة واحدة في الصوت.', 'كلمة واحدة موضوعة لا تناسب صوتها جيدًا.'],
    ['ar', 3, 'لم يُعثر على ٣ كلمات في الصوت.', '٣ كلمات موضوعة لا تناسب أصواتها جيدًا.'],
  ] as const)(
    'a partial result in %s with %i word(s) counted says it in the plural form it takes',
    async (language, n, notFound, poor) => {
      api.route('GET', '/api/alignments/a1/', () => ({
        status: 200,
        body: completedAlignment({
          verdict: 'partial',
          reasons: [
            { code: 'words_not_found', message: 'x', value: n },
            { code: 'low_confidence', message: 'x', value: n },
          ],
        }),
      }));
      await renderApp('/results/a1', { apiUrl: api.url, language });
      const banner = await screen.findByTestId('quality-banner');
      expect(banner.querySelector('[data-reason="words_not_found"]')?.textContent).toBe(notFound);
      expect(banner.querySelector('[data-reason="low_confidence"]')?.textContent).toBe(poor);
    },
  );
});

describe('results: where confidence is low', () => {
  it('marks the words under the account’s threshold in the transcript and names the poor fits with links', async () => {
    const detail = completedAlignment({
      verdict: 'good',
      reasons: [{ code: 'low_confidence', message: 'x', value: 1, words: [2] }],
    });
    detail.result!.words[1]!.confidence = 0.6;
    api.route('GET', '/api/alignments/a1/', () => ({ status: 200, body: detail }));
    // threshold "high" (0.7): "had" at 0.6 is under it; "your" is named by the verdict
    serveShell(api, makeUser({ preferences: { ...makeUser().preferences, confidence_threshold: 'high' } }));
    await renderApp('/results/a1', { apiUrl: api.url, language: 'en' });
    const banner = await screen.findByTestId('quality-banner');
    // a good verdict with a reason is "good, with notes"
    expect(banner.textContent).toContain('The transcript fits the speech, with notes');
    const link = within(banner).getByRole('button', { name: 'your' });
    const transcript = screen.getByTestId('transcript');
    expect(transcript.querySelector('[data-word="1"]')?.getAttribute('data-low')).toBe('true');
    expect(transcript.querySelector('[data-word="2"]')?.getAttribute('data-low')).toBe('true');
    expect(transcript.querySelector('[data-word="0"]')?.hasAttribute('data-low')).toBe(false);
    expect(screen.getByTestId('low-legend').textContent).toContain('High, 70%');
    fireEvent.click(link);
    await waitFor(() => expect(document.activeElement).toBe(transcript.querySelector('[data-word="2"]')));
  });

  it('word table durations in Arabic digits and the Arabic second', async () => {
    await renderApp('/results/a1', { apiUrl: api.url, language: 'ar' });
    const tab = await screen.findByRole('tab', { name: 'جدول الكلمات' });
    fireEvent.mouseDown(tab);
    fireEvent.click(tab);
    const table = await screen.findByTestId('word-table');
    expect(table.querySelector('tr')?.textContent).toContain('٠٫٤٠٠ ث');
  });
});

describe('results: the karaoke video', () => {
  it('a video rendered on an earlier visit shows its status and download button at once', async () => {
    api.route('GET', '/api/alignments/a1/video/', () => ({
      status: 200,
      body: {
        id: 'v1',
        status: 'completed',
        progress: 100,
        options: { resolution: 'sd', position: 'bottom', show_processed_text: false, show_waveform: true },
        width: 854,
        height: 480,
        fps: 30,
        file_size: 148_059,
        render_time: 1.01,
        error: null,
        download_url: '/api/alignments/a1/video/file/',
        created_at: '2026-03-01T10:00:00.000Z',
        completed_at: '2026-03-01T10:00:02.000Z',
      },
    }));
    api.route('GET', '/api/alignments/a1/', () => ({
      status: 200,
      body: { ...completedAlignment(), video: { status: 'completed' } },
    }));
    await renderApp('/results/a1', { apiUrl: api.url, language: 'en' });
    expect((await screen.findByTestId('video-status')).textContent).toContain('145 kB');
    screen.getByRole('button', { name: 'Download the video' });
  });

  it('no video yet: the render button, and no request for a video that is not there', async () => {
    await renderApp('/results/a1', { apiUrl: api.url, language: 'en' });
    await screen.findByRole('button', { name: 'Render the video' });
    expect(screen.queryByTestId('video-status')).toBeNull();
    expect(api.requests.some((r) => r.path === '/api/alignments/a1/video/')).toBe(false);
  });
});

describe('the correction workspace outside the tiers', () => {
  it('“To check first” follows the account’s threshold, not a fixed one', async () => {
    const detail = completedAlignment();
    detail.result!.words[1]!.confidence = 0.6;
    api.route('GET', '/api/alignments/a1/', () => ({ status: 200, body: detail }));
    api.route('GET', '/api/alignments/a1/revisions/', () => ({
      status: 200,
      body: [{ revision: 1, created_at: '2026-03-01T10:00:00.000Z', author: 'engine', changed_words: [] }],
    }));
    serveShell(api, makeUser({ preferences: { ...makeUser().preferences, confidence_threshold: 'high' } }));
    await renderApp('/results/a1?mode=correct', { apiUrl: api.url, language: 'en' });
    const check = await screen.findByTestId('editor-check');
    expect(check.textContent).toContain('below your confidence threshold (High, 70%)');
    expect([...check.querySelectorAll('[data-check-word]')].map((b) => b.textContent)).toEqual(['had']);
    // the revisions list offers each revision as a TextGrid, a read-along page and an EPUB
    const list = await screen.findByTestId('revision-list');
    await within(list).findByRole('button', {
      name: 'Download revision 1 as EPUB 3 with read-aloud (media overlays)',
    });
  });

  it('with the default threshold (medium) the same word is not one to check', async () => {
    const detail = completedAlignment();
    detail.result!.words[1]!.confidence = 0.6;
    api.route('GET', '/api/alignments/a1/', () => ({ status: 200, body: detail }));
    await renderApp('/results/a1?mode=correct', { apiUrl: api.url, language: 'en' });
    const check = await screen.findByTestId('editor-check');
    expect(check.textContent).toContain('No word with low confidence or missing.');
  });
});
