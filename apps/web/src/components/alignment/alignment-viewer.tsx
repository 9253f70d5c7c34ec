import { Fragment, useCallback, useEffect, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import * as Tabs from '@radix-ui/react-tabs';
import { useTranslation } from 'react-i18next';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { contentDirection } from '../../lib/content-direction.ts';
import { directionOf } from '../../lib/i18n.ts';
import { scrollBehavior } from '../../lib/motion.ts';
import { useUser } from '../../lib/api/get-user.ts';
import { CONFIDENCE_THRESHOLDS, isBelowThreshold } from './confidence-threshold.ts';
import { formatDuration, formatNumber, formatPercent, formatSeconds } from '../../lib/format.ts';
import { QualityBanner } from './verdict.tsx';
import { WaveformPlayer } from './waveform-player.tsx';
import type { PlayerHandle } from './waveform-player.tsx';
import { formatClock, wordAt } from './time.ts';
import { Sep } from '../ui/separator.tsx';

const TAB =
  'rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap text-muted hover:text-fg data-[state=active]:bg-surface-2 data-[state=active]:text-fg';

function Metric({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-xl bg-surface-2 p-4">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="mt-1 text-xl font-semibold tabular-nums">{value}</dd>
      {hint && <p className="mt-1 text-xs text-muted">{hint}</p>}
    </div>
  );
}

function confidenceTone(c: number): string {
  if (c >= 0.8) return 'bg-success/15';
  if (c >= 0.5) return 'bg-warning/15';
  return 'bg-danger/15';
}

/** Player, transcript with the sounding word highlighted, word table and metrics of one result. */
export function AlignmentViewer({ result, audioUrl }: { result: AlignmentResult; audioUrl: string | null }) {
  const { t, i18n } = useTranslation();
  const player = useRef<PlayerHandle>(null);
  const transcriptBox = useRef<HTMLDivElement>(null);
  const wordsTab = useRef<HTMLButtonElement>(null);
  const [tab, setTab] = useState('transcript');
  const [current, setCurrent] = useState(-1);
  const [mode, setMode] = useState<'segments' | 'continuous'>('segments');
  const [follow, setFollow] = useState(true);
  const [selected, setSelected] = useState(0);
  const words = result.words;
  // Signed in: the account's threshold; a shared page or a demo uses the default (medium).
  const threshold = useUser().user?.preferences.confidence_threshold ?? 'medium';
  // The transcript is one tab stop: the word holding tabIndex 0 (roving), arrows move between words.
  const [focusWord, setFocusWord] = useState(() =>
    Math.max(
      0,
      words.findIndex((w) => w.status !== 'not_found'),
    ),
  );
  const dir = contentDirection(result.language);
  const m = result.metrics;
  const pct = (v: number | null) => (v === null ? '—' : formatPercent(v));

  // the words the verdict says fit their audio poorly (by index): marked like those under the threshold
  const poorFit = new Set(result.quality.reasons.find((r) => r.code === 'low_confidence')?.words ?? []);
  const isLow = (i: number) => {
    const w = words[i]!;
    return w.status !== 'not_found' && (isBelowThreshold(w, threshold) || poorFit.has(w.index));
  };
  const anyLow = words.some((_, i) => isLow(i));

  const onTime = useCallback((s: number) => setCurrent(wordAt(words, s)), [words]);
  /** Plays one word, from its start to its end. */
  const playWord = (i: number) => {
    const w = words[i];
    if (w && w.start !== null && w.end !== null) player.current?.playSpan(w.start, w.end);
  };
  /** From the verdict's list: the word in the transcript, focused and played. */
  const showWord = (index: number) => {
    const pos = words.findIndex((w) => w.index === index);
    if (pos < 0) return;
    setTab('transcript');
    setFocusWord(pos);
    requestAnimationFrame(() => {
      const el = transcriptBox.current?.querySelector<HTMLElement>(`[data-word="${pos}"]`);
      el?.focus();
      el?.scrollIntoView({ block: 'center', behavior: scrollBehavior() });
    });
    playWord(pos);
  };

  // Space plays and pauses anywhere on the page except where it types or presses something.
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== ' ' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      const target = e.target as HTMLElement | null;
      if (
        target?.closest(
          'input, textarea, select, button, a, [contenteditable], [role="tab"], [role="option"], [role="combobox"], tr[tabindex]',
        )
      )
        return;
      e.preventDefault();
      player.current?.togglePlay();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    if (!follow || current < 0 || !transcriptBox.current) return;
    const el = transcriptBox.current.querySelector<HTMLElement>(`[data-word="${current}"]`);
    if (!el) return;
    const box = transcriptBox.current;
    const top = el.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 40) {
      box.scrollTo({ top: Math.max(0, top - box.clientHeight / 3), behavior: scrollBehavior() });
    }
  }, [current, follow]);

  const onTranscriptKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const forward = dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
    const backward = dir === 'rtl' ? 'ArrowRight' : 'ArrowLeft';
    // Words not found in the audio cannot be played: the focus passes over them.
    const playable = (i: number) => words[i]?.status !== 'not_found';
    let next = -1;
    if (e.key === 'Home') next = words.findIndex((_, i) => playable(i));
    else if (e.key === 'End') next = words.findLastIndex((_, i) => playable(i));
    else {
      const step =
        e.key === forward || e.key === 'ArrowDown' ? 1 : e.key === backward || e.key === 'ArrowUp' ? -1 : 0;
      if (!step) return;
      for (let i = focusWord + step; i >= 0 && i < words.length; i += step) {
        if (playable(i)) {
          next = i;
          break;
        }
      }
    }
    e.preventDefault();
    if (next < 0) return;
    setFocusWord(next);
    transcriptBox.current?.querySelector<HTMLElement>(`[data-word="${next}"]`)?.focus();
  };

  const wordSpan = (i: number) => {
    const w = words[i]!;
    const active = i === current;
    const missing = w.status === 'not_found';
    const low = isLow(i);
    const title = missing
      ? t('viewer.notFound')
      : `${formatClock(w.start, true)} – ${formatClock(w.end, true)}${
          low
            ? `${t('common.separator')}${t('viewer.lowConfidence', { value: formatPercent(w.confidence) })}`
            : ''
        }`;
    return (
      <button
        key={i}
        type="button"
        data-word={i}
        data-low={low || undefined}
        tabIndex={i === focusWord ? 0 : -1}
        onFocus={() => setFocusWord(i)}
        onClick={() => playWord(i)}
        // not found: no time to play, but focusable so the verdict's link can show where it is
        aria-disabled={missing || undefined}
        aria-label={low || missing ? `${w.word}, ${title}` : undefined}
        title={title}
        className={`rounded px-0.5 transition-colors ${
          active
            ? 'bg-accent text-accent-fg'
            : missing
              ? 'cursor-default text-muted line-through decoration-danger/60'
              : low
                ? 'underline decoration-warning decoration-dotted decoration-2 underline-offset-[6px] hover:bg-surface-2'
                : 'hover:bg-surface-2'
        }`}
      >
        {w.word}
      </button>
    );
  };

  const onTableKey = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = Math.min(words.length - 1, Math.max(0, selected + (e.key === 'ArrowDown' ? 1 : -1)));
      setSelected(next);
      e.currentTarget.querySelector<HTMLElement>(`[data-row="${next}"]`)?.focus();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      playWord(selected);
    } else if (e.key === 'Escape') {
      // out of the table to its tab, not to the top of the page
      e.preventDefault();
      wordsTab.current?.focus();
    }
  };

  return (
    <div className="space-y-6">
      <QualityBanner result={result} onWord={showWord} />
      {audioUrl && (
        <WaveformPlayer ref={player} url={audioUrl} duration={result.audio.duration} onTime={onTime} />
      )}
      {/* The engine's own notes are English text for API and CLI users; what they say about words the
          banner above already says in the interface language. Kept, folded, for those who want them. */}
      {result.warnings.length > 0 && (
        <details
          className="rounded-xl border border-border bg-surface px-4 py-2 text-sm"
          data-testid="engine-notes"
        >
          <summary className="cursor-pointer text-muted">
            {t('viewer.engineNotes', { count: result.warnings.length })}
          </summary>
          <ul className="mt-2 list-disc space-y-1 ps-5 break-words" lang="en" dir="ltr">
            {result.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </details>
      )}
      <Tabs.Root value={tab} onValueChange={setTab} dir={directionOf(i18n.language)}>
        <Tabs.List
          className="scroll-cue-x mb-4 flex gap-1 overflow-x-auto border-b border-border pb-2"
          aria-label={t('viewer.views')}
        >
          <Tabs.Trigger value="transcript" className={TAB}>
            {t('viewer.tabs.transcript')}
          </Tabs.Trigger>
          <Tabs.Trigger value="words" className={TAB} ref={wordsTab}>
            {t('viewer.tabs.words')}
          </Tabs.Trigger>
          <Tabs.Trigger value="metrics" className={TAB}>
            {t('viewer.tabs.metrics')}
          </Tabs.Trigger>
          <Tabs.Trigger value="text" className={TAB}>
            {t('viewer.tabs.text')}
          </Tabs.Trigger>
        </Tabs.List>

        <Tabs.Content value="transcript">
          <div className="mb-3 flex flex-wrap items-center gap-3 text-sm">
            <div className="flex rounded-lg bg-surface-2 p-1">
              {(['segments', 'continuous'] as const).map((v) => (
                <button
                  key={v}
                  type="button"
                  aria-pressed={mode === v}
                  onClick={() => setMode(v)}
                  className={`rounded-md px-3 py-1 ${mode === v ? 'bg-surface text-fg shadow-sm' : 'text-muted'}`}
                >
                  {t(`viewer.mode.${v}`)}
                </button>
              ))}
            </div>
            <label className="flex items-center gap-2 text-muted">
              <input
                type="checkbox"
                checked={follow}
                onChange={(e) => setFollow(e.target.checked)}
                className="accent-[var(--accent)]"
              />
              {t('viewer.autoScroll')}
            </label>
          </div>
          <div
            ref={transcriptBox}
            dir={dir}
            lang={result.language}
            className="max-h-[28rem] overflow-y-auto rounded-xl border border-border bg-surface p-4 text-lg leading-loose"
            data-testid="transcript"
            role="group"
            aria-label={t('viewer.transcriptLabel')}
            onKeyDown={onTranscriptKey}
          >
            {mode === 'continuous' ? (
              <p className="flex flex-wrap gap-x-1.5">{words.map((_, i) => wordSpan(i))}</p>
            ) : (
              <ol className="space-y-3">
                {result.segments.map((s) => (
                  <li key={s.index} className="flex gap-3">
                    <span dir="ltr" className="mt-1.5 shrink-0 font-mono text-xs text-muted tabular-nums">
                      {formatClock(s.start)}
                    </span>
                    <p className="flex flex-wrap gap-x-1.5">
                      {Array.from({ length: s.word_end - s.word_start }, (_, k) =>
                        wordSpan(s.word_start + k),
                      )}
                    </p>
                  </li>
                ))}
              </ol>
            )}
          </div>
          {anyLow && (
            <p className="mt-2 text-xs text-muted" data-testid="low-legend">
              <span className="underline decoration-warning decoration-dotted decoration-2 underline-offset-4">
                {t('viewer.lowLegendSample')}
              </span>
              {': '}
              {t('viewer.lowLegend', {
                level: t(`profile.preferences.levels.${threshold}`),
                value: formatPercent(CONFIDENCE_THRESHOLDS[threshold]),
              })}
            </p>
          )}
        </Tabs.Content>

        <Tabs.Content value="words">
          <p className="mb-2 text-xs text-muted">{t('viewer.tableHint')}</p>
          <div className="scroll-cue-x max-h-[28rem] overflow-auto rounded-xl border border-border">
            <table className="w-full min-w-[46rem] text-sm">
              <thead className="sticky top-0 bg-surface-2 text-muted">
                <tr>
                  <th className="px-3 py-2 text-start font-medium">#</th>
                  <th className="px-3 py-2 text-start font-medium">{t('viewer.columns.word')}</th>
                  <th className="px-3 py-2 text-start font-medium">{t('viewer.columns.normalized')}</th>
                  <th className="px-3 py-2 text-start font-medium">{t('viewer.columns.phones')}</th>
                  <th className="px-3 py-2 text-start font-medium">{t('viewer.columns.start')}</th>
                  <th className="px-3 py-2 text-start font-medium">{t('viewer.columns.end')}</th>
                  <th className="px-3 py-2 text-start font-medium">{t('viewer.columns.duration')}</th>
                  <th className="px-3 py-2 text-start font-medium">{t('viewer.columns.confidence')}</th>
                </tr>
              </thead>
              <tbody onKeyDown={onTableKey} data-testid="word-table">
                {words.map((w, i) => (
                  <tr
                    key={i}
                    data-row={i}
                    tabIndex={i === selected ? 0 : -1}
                    onClick={() => {
                      setSelected(i);
                      playWord(i);
                    }}
                    onFocus={() => setSelected(i)}
                    aria-selected={i === selected}
                    className={`cursor-pointer border-t border-border outline-none focus:bg-accent-soft ${
                      i === current ? 'bg-accent-soft' : ''
                    }`}
                  >
                    <td className="px-3 py-1.5 text-muted tabular-nums">{formatNumber(i + 1)}</td>
                    <td className="px-3 py-1.5 font-medium" dir={dir}>
                      {w.word}
                    </td>
                    <td className="px-3 py-1.5 text-muted" dir={dir}>
                      {w.normalized}
                    </td>
                    <td
                      className="px-3 py-1.5 font-mono whitespace-nowrap"
                      dir="ltr"
                      lang="und-fonipa"
                      title={w.phones.map((p) => p.model_phone).join(' ')}
                      data-testid="word-phones"
                    >
                      {w.phones.map((p, k) => (
                        <Fragment key={k}>
                          {k > 0 ? ' ' : null}
                          {p.approximated ? (
                            <span
                              className="underline decoration-dotted underline-offset-4"
                              data-approximated={p.model_phone || 'none'}
                              title={
                                p.model_phone
                                  ? t('viewer.approximatedAs', { model: p.model_phone })
                                  : t('viewer.approximatedNone')
                              }
                            >
                              {p.phone}
                            </span>
                          ) : (
                            p.phone
                          )}
                        </Fragment>
                      ))}
                    </td>
                    <td className="px-3 py-1.5 font-mono tabular-nums" dir="ltr">
                      {formatClock(w.start, true)}
                    </td>
                    <td className="px-3 py-1.5 font-mono tabular-nums" dir="ltr">
                      {formatClock(w.end, true)}
                    </td>
                    <td className="px-3 py-1.5 whitespace-nowrap tabular-nums">
                      {w.duration === null ? '–' : formatSeconds(w.duration)}
                    </td>
                    <td className="px-3 py-1.5">
                      {w.status === 'not_found' ? (
                        <span className="text-danger">{t('viewer.notFound')}</span>
                      ) : (
                        <>
                          <span
                            className={`rounded px-1.5 py-0.5 tabular-nums ${confidenceTone(w.confidence)}`}
                          >
                            {formatPercent(w.confidence)}
                          </span>
                          {isLow(i) && (
                            <span className="ms-2 text-xs text-danger" data-testid="below-threshold">
                              {t('viewer.belowThreshold')}
                            </span>
                          )}
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {result.words.some((w) => w.phones.some((p) => p.approximated)) ? (
            <p className="mt-2 text-xs text-muted" data-testid="approximated-legend">
              {t('viewer.approximatedLegend')}
            </p>
          ) : null}
        </Tabs.Content>

        <Tabs.Content value="metrics">
          <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <Metric
              label={t('viewer.metrics.coverage')}
              value={pct(m.coverage)}
              hint={t('viewer.metrics.coverageHint')}
            />
            <Metric
              label={t('viewer.metrics.confidence')}
              value={pct(m.mean_confidence)}
              hint={t('viewer.metrics.confidenceHint')}
            />
            <Metric label={t('viewer.metrics.wer')} value={pct(m.wer)} hint={t('viewer.metrics.werHint')} />
            <Metric label={t('viewer.metrics.cer')} value={pct(m.cer)} hint={t('viewer.metrics.cerHint')} />
            <Metric
              label={t('viewer.metrics.words')}
              value={`${formatNumber(m.words_aligned)} / ${formatNumber(m.words_total)}`}
            />
            <Metric label={t('viewer.metrics.duration')} value={formatDuration(m.audio_duration)} />
            <Metric label={t('viewer.metrics.processing')} value={formatDuration(m.processing_time)} />
            <Metric
              label={t('viewer.metrics.speed')}
              value={
                m.real_time_factor > 0
                  ? `${formatNumber(1 / m.real_time_factor, { maximumFractionDigits: 1 })}×`
                  : '—'
              }
              hint={t('viewer.metrics.speedHint')}
            />
            <Metric
              label={t('viewer.metrics.phoneErrorRate')}
              value={pct(m.phone_error_rate)}
              hint={t('viewer.metrics.phoneErrorRateHint')}
            />
            <Metric label={t('viewer.metrics.speech')} value={formatDuration(m.speech_seconds)} />
            <Metric
              label={t('viewer.metrics.untranscribed')}
              value={formatDuration(m.untranscribed_speech_seconds)}
            />
            <Metric label={t('viewer.metrics.detectedLanguage')} value={result.detected_language ?? '—'} />
          </dl>
          <dl className="mt-4 grid gap-x-6 gap-y-2 rounded-xl border border-border p-4 text-sm sm:grid-cols-2">
            <div className="flex justify-between gap-3">
              <dt className="text-muted">{t('viewer.engine')}</dt>
              <dd dir="ltr">
                {result.engine.backend}
                <Sep />
                {result.engine.model}
              </dd>
            </div>
            <div className="flex justify-between gap-3">
              <dt className="text-muted">{t('viewer.route')}</dt>
              <dd dir="ltr">{result.engine.route}</dd>
            </div>
            <div className="flex justify-between gap-3">
              <dt className="text-muted">{t('viewer.precision')}</dt>
              <dd>{t(`upload.precision.${result.engine.precision}`)}</dd>
            </div>
            <div className="flex justify-between gap-3">
              <dt className="text-muted">{t('viewer.audioFormat')}</dt>
              <dd dir="ltr">
                {result.audio.format}
                <Sep />
                {formatNumber(result.audio.sample_rate)} Hz
              </dd>
            </div>
          </dl>
        </Tabs.Content>

        <Tabs.Content value="text" className="grid gap-4 md:grid-cols-2">
          <div>
            <h3 className="mb-2 text-sm font-medium text-muted">{t('viewer.original')}</h3>
            <p
              dir={dir}
              lang={result.language}
              className="rounded-xl border border-border bg-surface p-4 whitespace-pre-wrap"
            >
              {result.text.original}
            </p>
          </div>
          <div>
            <h3 className="mb-2 text-sm font-medium text-muted">{t('viewer.processed')}</h3>
            <p
              dir={dir}
              lang={result.language}
              className="rounded-xl border border-border bg-surface p-4 whitespace-pre-wrap"
            >
              {result.text.processed}
            </p>
          </div>
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
