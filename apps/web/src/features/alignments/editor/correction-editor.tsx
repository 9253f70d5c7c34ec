// The correction workspace: waveform, spectrogram and Praat-like word and phone tiers to see, hear
// and fix an alignment; saves become revisions on the server, a selected stretch can be re-aligned.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent as ReactKeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import WaveSurfer from 'wavesurfer.js';
import RegionsPlugin from 'wavesurfer.js/dist/plugins/regions.esm.js';
import SpectrogramPlugin from 'wavesurfer.js/dist/plugins/spectrogram.esm.js';
import TimelinePlugin from 'wavesurfer.js/dist/plugins/timeline.esm.js';
import ZoomPlugin from 'wavesurfer.js/dist/plugins/zoom.esm.js';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { contentDirection } from '../../../lib/content-direction.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/download.ts';
import { formatDateTime, formatNumber, formatPercent } from '../../../lib/format.ts';
import { useUiStore, toast } from '../../../stores/ui-store.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { formatClock } from '../../../components/alignment/time.ts';
import { alignmentQueryKey } from '../../../lib/api/get-alignment.ts';
import { exportFile } from '../api/alignments-api.ts';
import { realignmentQueryKey, useRealignment } from '../api/get-realignment.ts';
import { revisionsQueryKey, useRevisions } from '../api/get-revisions.ts';
import { requestRealign, saveRevision } from '../api/revisions-api.ts';
import {
  NUDGE,
  edgeTime,
  mergePhones,
  moveEdge,
  nudgeEdge,
  revisionBody,
  setPhoneLabel,
  setWordLabel,
  splitPhone,
  textBetween,
  wordAtTime,
  wordsToCheck,
} from './edit-model.ts';
import type { EdgeRef } from './edit-model.ts';
import { BoundaryLines, TierLayer } from './tier-layer.tsx';
import type { Selection } from './tier-layer.tsx';
import { useEditHistory } from './use-edit-history.ts';

const RATES = [0.25, 0.5, 0.75, 1, 1.25, 1.5];
const WAVE_HEIGHT = 96;
const SPECTRO_HEIGHT = 128;

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

const r3 = (x: number): string => x.toFixed(3);

interface Stretch {
  start: number;
  end: number;
}

/** Interval times of the selection, or null. */
function selectionSpan(d: AlignmentResult, s: Selection): Stretch | null {
  if (!s) return null;
  const w = d.words[s.word];
  if (!w) return null;
  if (s.tier === 'word') return w.start === null || w.end === null ? null : { start: w.start, end: w.end };
  const p = w.phones[s.phone];
  return p ? { start: p.start, end: p.end } : null;
}

export function CorrectionEditor({
  alignmentId,
  result,
  audioUrl,
}: {
  alignmentId: string;
  result: AlignmentResult;
  audioUrl: string | null;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const theme = useUiStore((s) => s.theme);
  const revision = result.revision?.number ?? 1;
  const history = useEditHistory(result);
  const { draft } = history;
  const dir = contentDirection(result.language);

  const root = useRef<HTMLDivElement>(null);
  const container = useRef<HTMLDivElement>(null);
  const labelInput = useRef<HTMLInputElement>(null);
  const ws = useRef<WaveSurfer | null>(null);
  const regions = useRef<RegionsPlugin | null>(null);
  const [hosts, setHosts] = useState<{ tiers: HTMLElement; lines: HTMLElement } | null>(null);
  const [duration, setDuration] = useState(result.audio.duration);
  const [ready, setReady] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [rate, setRate] = useState(1);
  const [zoom, setZoom] = useState(0);
  const [selection, setSelection] = useState<Selection>(null);
  const [edge, setEdge] = useState<EdgeRef | null>(null);
  const [stretch, setStretch] = useState<Stretch | null>(null);
  const [stretchText, setStretchText] = useState('');
  const [labelEdit, setLabelEdit] = useState<{ key: string; value: string } | null>(null);
  const draftRef = useRef(draft);
  const [help, setHelp] = useState(false);
  const [saveError, setSaveError] = useState<{ message: string; conflict: boolean } | null>(null);
  const [realignId, setRealignId] = useState<string | null>(null);

  const body = useMemo(() => revisionBody(result, draft, revision), [result, draft, revision]);
  const dirty = body !== null;
  const playingWord = useMemo(() => (playing ? wordAtTime(draft, time) : -1), [draft, time, playing]);
  const toCheck = useMemo(() => wordsToCheck(draft), [draft]);

  // Leaving with unsaved corrections asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  useEffect(() => {
    if (!container.current || !audioUrl) return;
    const regionsPlugin = RegionsPlugin.create();
    const instance = WaveSurfer.create({
      container: container.current,
      url: audioUrl,
      // decoded at the engine's rate, so the spectrogram reaches 8 kHz (wavesurfer's default is 8000)
      sampleRate: 16000,
      height: WAVE_HEIGHT,
      waveColor: cssVar('--muted'),
      progressColor: cssVar('--muted'),
      cursorColor: cssVar('--danger'),
      cursorWidth: 2,
      normalize: true,
      autoScroll: true,
      autoCenter: false,
      plugins: [
        TimelinePlugin.create({ height: 18, style: { color: cssVar('--muted'), fontSize: '11px' } }),
        SpectrogramPlugin.create({
          height: SPECTRO_HEIGHT,
          frequencyMax: 8000,
          fftSamples: 512,
          labels: false,
          scale: 'linear',
          // white paper and dark energy in the light theme, as in Praat; the reverse in the dark one
          colorMap: theme === 'dark' ? 'igray' : 'gray',
        }),
        ZoomPlugin.create({ scale: 0.3, maxZoom: 4000, exponentialZooming: true }),
        regionsPlugin,
      ],
    });
    ws.current = instance;
    regions.current = regionsPlugin;
    regionsPlugin.enableDragSelection({ color: 'color-mix(in srgb, var(--accent) 18%, transparent)' }, 3);
    const onRegion = (r: { id: string; start: number; end: number }) => {
      for (const other of regionsPlugin.getRegions()) if (other.id !== r.id) other.remove();
      setStretch({ start: r.start, end: r.end });
      setStretchText(textBetween(draftRef.current, r.start, r.end));
    };
    const unsubs = [
      regionsPlugin.on('region-created', onRegion),
      regionsPlugin.on('region-updated', onRegion),
      instance.on('ready', (d) => {
        setDuration(d);
        setReady(true);
        // The tiers go last in the wrapper, under the spectrogram; the lines cover everything.
        const wrapper = instance.getWrapper();
        const tiers = document.createElement('div');
        tiers.dataset.testid = 'tier-host';
        const lines = document.createElement('div');
        Object.assign(lines.style, { position: 'absolute', inset: '0', pointerEvents: 'none', zIndex: '3' });
        wrapper.append(tiers, lines);
        setHosts({ tiers, lines });
      }),
      instance.on('timeupdate', (s) => setTime(s)),
      instance.on('interaction', (s) => setTime(s)),
      instance.on('play', () => setPlaying(true)),
      instance.on('pause', () => setPlaying(false)),
      instance.on('finish', () => setPlaying(false)),
      instance.on('zoom', (px) => setZoom(px)),
    ];
    return () => {
      for (const u of unsubs) u();
      instance.destroy();
      ws.current = null;
      regions.current = null;
      setHosts(null);
      setReady(false);
    };
    // The theme is read once per load: repainting the spectrogram means decoding again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [audioUrl]);

  useEffect(() => {
    ws.current?.setOptions({
      waveColor: cssVar('--muted'),
      progressColor: cssVar('--muted'),
      cursorColor: cssVar('--danger'),
    });
  }, [theme]);

  // The label field shows the selection's label until the user types in it.
  const selKey = selection ? JSON.stringify(selection) : '';
  const currentLabel = (() => {
    const w = selection ? draft.words[selection.word] : undefined;
    if (!selection || !w) return '';
    return selection.tier === 'word' ? w.word : (w.phones[selection.phone]?.phone ?? '');
  })();
  const label = labelEdit?.key === selKey ? labelEdit.value : currentLabel;
  const setLabel = (value: string) => setLabelEdit({ key: selKey, value });

  useEffect(() => {
    draftRef.current = draft;
  }, [draft]);

  const playSpan = useCallback((span: Stretch | null) => {
    if (span && ws.current) void ws.current.play(span.start, span.end);
  }, []);

  const select = useCallback(
    (s: Selection) => {
      setSelection(s);
      setEdge(null);
      const span = selectionSpan(draft, s);
      if (span) ws.current?.setTime(span.start);
      root.current?.focus();
    },
    [draft],
  );

  const setZoomLevel = (px: number) => {
    const next = Math.max(0, Math.min(4000, px));
    setZoom(next);
    ws.current?.zoom(next);
  };
  const zoomBy = (factor: number) => {
    const w = ws.current;
    const base = zoom || (w ? w.getWidth() / Math.max(duration, 0.001) : 50);
    setZoomLevel(base * factor);
  };

  const goToNextCheck = () => {
    const from = selection?.word ?? -1;
    const next = toCheck.find((i) => i > from) ?? toCheck[0];
    if (next === undefined) return;
    select({ tier: 'word', word: next });
    const w = draft.words[next]!;
    if (w.start !== null) ws.current?.setScrollTime(Math.max(0, w.start - 1));
  };

  const applyLabel = () => {
    if (!selection) return;
    history.apply(
      selection.tier === 'word'
        ? setWordLabel(draft, selection.word, label)
        : setPhoneLabel(draft, selection.word, selection.phone, label),
    );
    root.current?.focus();
  };

  const split = () => {
    if (selection?.tier !== 'phone') return;
    history.apply(splitPhone(draft, selection.word, selection.phone, time));
  };
  const merge = () => {
    if (selection?.tier !== 'phone') return;
    history.apply(mergePhones(draft, selection.word, selection.phone));
  };

  const moveInTier = (step: 1 | -1) => {
    const words = draft.words;
    if (!selection || selection.tier === 'word') {
      let i = selection ? selection.word : step > 0 ? -1 : words.length;
      do i += step;
      while (i >= 0 && i < words.length && words[i]!.start === null);
      if (i >= 0 && i < words.length) select({ tier: 'word', word: i });
      return;
    }
    let { word, phone } = selection;
    phone += step;
    while (word >= 0 && word < words.length && (phone < 0 || phone >= words[word]!.phones.length)) {
      word += step;
      if (word < 0 || word >= words.length) return;
      phone = step > 0 ? 0 : words[word]!.phones.length - 1;
    }
    select({ tier: 'phone', word, phone });
  };

  const switchTier = () => {
    if (!selection) return;
    if (selection.tier === 'phone') select({ tier: 'word', word: selection.word });
    else if (draft.words[selection.word]?.phones.length)
      select({ tier: 'phone', word: selection.word, phone: 0 });
  };

  const save = useMutation({
    mutationFn: () => saveRevision(alignmentId, body!),
    onSuccess: (created) => {
      setSaveError(null);
      toast.success(t('editor.saved', { n: created.revision }));
      queryClient.setQueryData(alignmentQueryKey(alignmentId), (old: unknown) =>
        old && typeof old === 'object' ? { ...old, result: created.result } : old,
      );
      void queryClient.invalidateQueries({ queryKey: revisionsQueryKey(alignmentId) });
    },
    onError: (e) => {
      const conflict = isApiError(e) && e.code === 'revision_conflict';
      setSaveError({ message: e.message, conflict });
      const at = isApiError(e) ? e.body?.word_index : undefined;
      if (typeof at === 'number') {
        const pos = draft.words.findIndex((w) => w.index === at);
        if (pos >= 0) select({ tier: 'word', word: pos });
      }
    },
  });

  const revisions = useRevisions(alignmentId);

  const realign = useMutation({
    mutationFn: (s: Stretch) =>
      requestRealign(alignmentId, { start: s.start, end: s.end, text: stretchText }),
    onSuccess: (r) => {
      setRealignId(r.id);
      queryClient.setQueryData(realignmentQueryKey(alignmentId), r);
    },
    onError: (e) => toast.error(e.message),
  });
  const realignment = useRealignment(alignmentId, realignId !== null);
  const realignState = realignId !== null && realignment.data?.id === realignId ? realignment.data : null;
  useEffect(() => {
    if (realignState?.status !== 'completed') return;
    toast.success(t('editor.stretch.done', { n: realignState.revision }));
    // the new revision re-mounts the editor (keyed by revision) with a fresh draft and no stretch
    void queryClient.invalidateQueries({ queryKey: alignmentQueryKey(alignmentId) });
    void queryClient.invalidateQueries({ queryKey: revisionsQueryKey(alignmentId) });
  }, [realignState, queryClient, alignmentId, t]);
  const realignRunning =
    realign.isPending || realignState?.status === 'queued' || realignState?.status === 'processing';

  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (
      e.target instanceof HTMLInputElement ||
      e.target instanceof HTMLTextAreaElement ||
      e.target instanceof HTMLSelectElement
    )
      return;
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key;
    const handled = () => {
      e.preventDefault();
      e.stopPropagation();
    };
    if (mod && key.toLowerCase() === 'z') {
      handled();
      if (e.shiftKey) history.redo();
      else history.undo();
    } else if (mod && key.toLowerCase() === 'y') {
      handled();
      history.redo();
    } else if (mod && key.toLowerCase() === 's') {
      handled();
      if (dirty && !save.isPending) save.mutate();
    } else if (mod) {
      return;
    } else if (key === ' ') {
      handled();
      void ws.current?.playPause();
    } else if (key === 'p' || key === 'P') {
      handled();
      playSpan(edge ? null : (selectionSpan(draft, selection) ?? stretch));
    } else if ((key === 'ArrowLeft' || key === 'ArrowRight') && edge) {
      handled();
      // Time runs left to right whatever the interface language: ← is always earlier.
      const step = (key === 'ArrowLeft' ? -1 : 1) * (e.shiftKey ? NUDGE / 5 : NUDGE);
      history.apply(nudgeEdge(draft, edge, step));
    } else if (key === 'Tab') {
      handled();
      moveInTier(e.shiftKey ? -1 : 1);
    } else if (key === 'ArrowUp' || key === 'ArrowDown') {
      handled();
      switchTier();
    } else if ((key === '[' || key === ']') && selection) {
      handled();
      const side = key === '[' ? 'start' : 'end';
      setEdge({
        word: selection.word,
        phone: selection.tier === 'phone' ? selection.phone : null,
        edge: side,
      });
    } else if (key === 'Enter' && selection) {
      handled();
      labelInput.current?.focus();
      labelInput.current?.select();
    } else if (key === 's' || key === 'S') {
      handled();
      split();
    } else if (key === 'm' || key === 'M') {
      handled();
      merge();
    } else if (key === '+' || key === '=') {
      handled();
      zoomBy(1.6);
    } else if (key === '-') {
      handled();
      zoomBy(1 / 1.6);
    } else if (key === 'n' || key === 'N') {
      handled();
      goToNextCheck();
    } else if (key === '?') {
      handled();
      setHelp((h) => !h);
    } else if (key === 'Escape') {
      setSelection(null);
      setEdge(null);
    }
  };

  const edgeAt = edge ? edgeTime(draft, edge) : null;
  const selWord = selection ? draft.words[selection.word] : undefined;

  const shortcuts: [string, string][] = [
    ['Space', t('editor.help.space')],
    ['P', t('editor.help.play')],
    ['Tab / ⇧ Tab', t('editor.help.tab')],
    ['↑ ↓', t('editor.help.tier')],
    ['[ ]', t('editor.help.edges')],
    ['← →', t('editor.help.nudge')],
    ['Enter', t('editor.help.edit')],
    ['S', t('editor.help.split')],
    ['M', t('editor.help.merge')],
    ['Ctrl Z / Ctrl ⇧ Z', t('editor.help.undo')],
    ['Ctrl S', t('editor.help.save')],
    ['+ −', t('editor.help.zoom')],
    ['N', t('editor.help.next')],
    ['?', t('editor.help.help')],
  ];

  return (
    <div
      ref={root}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      data-testid="correction-editor"
      className="space-y-4 outline-none"
    >
      <div className="flex flex-wrap items-center gap-2">
        <Button
          size="sm"
          onClick={() => void ws.current?.playPause()}
          disabled={!ready}
          aria-keyshortcuts="Space"
        >
          {playing ? t('editor.pause') : t('editor.play')}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={!ready || (!selection && !stretch)}
          onClick={() => playSpan(selectionSpan(draft, selection) ?? stretch)}
          aria-keyshortcuts="P"
        >
          {t('editor.playSelection')}
        </Button>
        <label className="flex items-center gap-2 text-sm text-muted">
          {t('editor.speed')}
          <select
            value={rate}
            onChange={(e) => {
              const r = Number(e.target.value);
              setRate(r);
              ws.current?.setPlaybackRate(r, true);
            }}
            className="rounded-md border border-border bg-surface px-2 py-1 text-fg"
          >
            {RATES.map((r) => (
              <option key={r} value={r}>
                {r}×
              </option>
            ))}
          </select>
        </label>
        <span className="text-sm text-muted">
          {t('editor.cursor')}{' '}
          <span dir="ltr" className="font-mono tabular-nums text-fg" data-testid="editor-time">
            {formatClock(time, true)}
          </span>
        </span>
        <div className="ms-auto flex items-center gap-1">
          <Button
            size="sm"
            variant="ghost"
            onClick={() => zoomBy(1 / 1.6)}
            aria-label={t('editor.zoomOut')}
            disabled={!ready}
          >
            −
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setZoomLevel(0)} disabled={!ready}>
            {t('editor.zoomFit')}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => zoomBy(1.6)}
            aria-label={t('editor.zoomIn')}
            disabled={!ready}
          >
            +
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setHelp((h) => !h)}
            aria-expanded={help}
            aria-keyshortcuts="?"
          >
            {t('editor.help.open')}
          </Button>
        </div>
      </div>

      {help && (
        <section className="rounded-xl border border-border bg-surface p-4" data-testid="shortcuts-help">
          <h3 className="mb-2 font-semibold">{t('editor.help.title')}</h3>
          <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
            {shortcuts.map(([k, v]) => (
              <div key={k} className="flex gap-3">
                <dt dir="ltr" className="w-40 shrink-0">
                  <kbd className="rounded border border-border bg-surface-2 px-1.5 font-mono text-xs">
                    {k}
                  </kbd>
                </dt>
                <dd className="text-muted">{v}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}

      <div
        dir="ltr"
        className="relative rounded-xl border border-border bg-surface-2/50 p-2"
        aria-label={t('editor.waveform')}
        onPointerUp={() => root.current?.focus()}
      >
        <div
          ref={container}
          data-testid="editor-waveform"
          style={{ minHeight: WAVE_HEIGHT + SPECTRO_HEIGHT }}
        />
        {!audioUrl && <p className="text-sm text-muted">{t('common.loading')}</p>}
        <div className="mt-1 flex gap-4 text-xs text-muted">
          <span>
            {t('editor.tiers.words')} / {t('editor.tiers.phones')}
          </span>
          <span dir="ltr" className="tabular-nums">
            {zoom ? `${formatNumber(Math.round(zoom))} px/s` : ''}
          </span>
        </div>
      </div>
      {hosts &&
        createPortal(
          <TierLayer
            draft={draft}
            duration={duration}
            dir={dir}
            selection={selection}
            edge={edge}
            playing={playingWord}
            labels={{
              words: t('editor.tiers.words'),
              phones: t('editor.tiers.phones'),
              missing: t('editor.check.missing'),
              low: (v) => t('editor.check.low', { value: formatPercent(v) }),
            }}
            onSelect={select}
            onEdge={(r) => {
              setEdge(r);
              setSelection(
                r.phone === null
                  ? { tier: 'word', word: r.word }
                  : { tier: 'phone', word: r.word, phone: r.phone },
              );
            }}
            onDrag={(r, at) => history.preview(moveEdge(draft, r, at))}
            onDragEnd={() => {
              history.commit();
              root.current?.focus();
            }}
          />,
          hosts.tiers,
        )}
      {hosts && createPortal(<BoundaryLines draft={draft} duration={duration} edge={edge} />, hosts.lines)}

      <div className="flex flex-wrap items-center gap-2">
        <Button
          size="sm"
          variant="secondary"
          onClick={history.undo}
          disabled={!history.canUndo}
          aria-keyshortcuts="Control+Z"
        >
          {t('editor.undo')}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          onClick={history.redo}
          disabled={!history.canRedo}
          aria-keyshortcuts="Control+Shift+Z"
        >
          {t('editor.redo')}
        </Button>
        <Button
          size="sm"
          onClick={() => save.mutate()}
          disabled={!dirty}
          loading={save.isPending}
          aria-keyshortcuts="Control+S"
        >
          {t('editor.save')}
        </Button>
        <span className="text-sm text-muted" data-testid="editor-state">
          {t('editor.revisionOf', { n: revision })} · {dirty ? t('editor.unsaved') : t('editor.upToDate')}
        </span>
      </div>
      {saveError && (
        <Alert tone="danger">
          <p>{saveError.message}</p>
          {saveError.conflict && (
            <Button
              size="sm"
              variant="secondary"
              className="mt-2"
              onClick={() => {
                setSaveError(null);
                void queryClient.invalidateQueries({ queryKey: alignmentQueryKey(alignmentId) });
                void queryClient.invalidateQueries({ queryKey: revisionsQueryKey(alignmentId) });
              }}
            >
              {t('editor.reload')}
            </Button>
          )}
        </Alert>
      )}

      <div className="grid gap-4 lg:grid-cols-3">
        <section className="rounded-xl border border-border bg-surface p-4" data-testid="editor-selection">
          {edge && edgeAt !== null ? (
            <p className="mb-2 text-sm">{t('editor.boundary', { time: r3(edgeAt) })}</p>
          ) : null}
          {selection && selWord ? (
            <>
              <h3 className="font-semibold">
                {selection.tier === 'word'
                  ? t('editor.wordN', { n: formatNumber(selection.word + 1) })
                  : t('editor.phoneN', { n: formatNumber(selection.phone + 1), word: selWord.word })}
              </h3>
              <p dir="ltr" className="font-mono text-sm tabular-nums text-muted">
                {(() => {
                  const span = selectionSpan(draft, selection);
                  return span ? `${r3(span.start)} – ${r3(span.end)} s` : t('editor.check.missing');
                })()}
              </p>
              <form
                className="mt-3 flex gap-2"
                onSubmit={(e) => {
                  e.preventDefault();
                  applyLabel();
                }}
              >
                <label className="sr-only" htmlFor="editor-label">
                  {t('editor.label')}
                </label>
                <input
                  id="editor-label"
                  ref={labelInput}
                  value={label}
                  dir={selection.tier === 'word' ? dir : 'ltr'}
                  onChange={(e) => setLabel(e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === 'Escape') root.current?.focus();
                  }}
                  className="min-w-0 flex-1 rounded-md border border-border bg-surface px-2 py-1"
                />
                <Button size="sm" type="submit" variant="secondary">
                  {t('editor.apply')}
                </Button>
              </form>
              {selection.tier === 'phone' && (
                <div className="mt-3 flex flex-wrap gap-2">
                  <Button size="sm" variant="ghost" onClick={split} aria-keyshortcuts="S">
                    {t('editor.split')}
                  </Button>
                  <Button size="sm" variant="ghost" onClick={merge} aria-keyshortcuts="M">
                    {t('editor.merge')}
                  </Button>
                </div>
              )}
            </>
          ) : (
            !edge && <p className="text-sm text-muted">{t('editor.nothingSelected')}</p>
          )}
        </section>

        <section className="rounded-xl border border-border bg-surface p-4" data-testid="editor-stretch">
          <h3 className="font-semibold">{t('editor.stretch.title')}</h3>
          {stretch ? (
            <>
              <p dir="ltr" className="font-mono text-sm tabular-nums text-muted">
                {t('editor.stretch.range', { start: r3(stretch.start), end: r3(stretch.end) })}
              </p>
              <label className="mt-2 block text-sm text-muted" htmlFor="stretch-text">
                {t('editor.stretch.text')}
              </label>
              <textarea
                id="stretch-text"
                dir={dir}
                value={stretchText}
                onChange={(e) => setStretchText(e.target.value)}
                rows={2}
                className="mt-1 w-full rounded-md border border-border bg-surface px-2 py-1"
              />
              {dirty && <p className="mt-1 text-sm text-warning">{t('editor.stretch.saveFirst')}</p>}
              {realignState?.status === 'failed' && (
                <Alert tone="danger" title={t('editor.stretch.failed')}>
                  {realignState.error?.detail}
                </Alert>
              )}
              <div className="mt-2 flex flex-wrap gap-2">
                <Button
                  size="sm"
                  onClick={() => realign.mutate(stretch)}
                  disabled={dirty}
                  loading={realignRunning}
                >
                  {realignRunning ? t('editor.stretch.running') : t('editor.stretch.realign')}
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => {
                    regions.current?.clearRegions();
                    setStretch(null);
                  }}
                >
                  {t('editor.stretch.clear')}
                </Button>
              </div>
            </>
          ) : (
            <p className="text-sm text-muted">{t('editor.stretch.hint')}</p>
          )}
        </section>

        <section className="rounded-xl border border-border bg-surface p-4" data-testid="editor-check">
          <h3 className="font-semibold">{t('editor.check.title')}</h3>
          {toCheck.length === 0 ? (
            <p className="text-sm text-muted">{t('editor.check.none')}</p>
          ) : (
            <>
              <ul className="mt-2 flex max-h-32 flex-wrap gap-1 overflow-y-auto" dir={dir}>
                {toCheck.map((i) => {
                  const w = draft.words[i]!;
                  return (
                    <li key={i}>
                      <button
                        type="button"
                        onClick={() => select({ tier: 'word', word: i })}
                        title={
                          w.status === 'not_found'
                            ? t('editor.check.missing')
                            : t('editor.check.low', { value: formatPercent(w.confidence) })
                        }
                        className={`rounded px-1.5 py-0.5 text-sm ${w.status === 'not_found' ? 'bg-danger-soft text-danger' : 'bg-warning-soft text-warning'}`}
                      >
                        {w.word}
                      </button>
                    </li>
                  );
                })}
              </ul>
              <Button
                size="sm"
                variant="ghost"
                className="mt-2"
                onClick={goToNextCheck}
                aria-keyshortcuts="N"
              >
                {t('editor.check.next')}
              </Button>
            </>
          )}
        </section>
      </div>

      <section className="rounded-xl border border-border bg-surface p-4" data-testid="revision-list">
        <h3 className="mb-2 font-semibold">{t('editor.revisions.title')}</h3>
        <ol className="divide-y divide-border text-sm">
          {(revisions.data ?? []).map((r) => (
            <li
              key={r.revision}
              className="flex flex-wrap items-center gap-3 py-2"
              data-revision={r.revision}
            >
              <span className="font-medium">{t('editor.revisionOf', { n: r.revision })}</span>
              <span>{t(`editor.revisions.${r.author}`)}</span>
              <span className="text-muted">{formatDateTime(r.created_at)}</span>
              {r.revision > 1 && (
                <span className="text-muted">
                  {t('editor.revisions.changed', { count: r.changed_words.length })}
                </span>
              )}
              {r.revision === revision && (
                <span className="rounded-full bg-accent-soft px-2 text-xs text-accent">
                  {t('editor.revisions.current')}
                </span>
              )}
              <Button
                size="sm"
                variant="ghost"
                className="ms-auto"
                onClick={() =>
                  void exportFile(alignmentId, 'textgrid', { revision: String(r.revision) }).then(
                    (blob) => saveBlob(blob, `alignment-r${r.revision}.TextGrid`),
                    (e: Error) => toast.error(e.message),
                  )
                }
              >
                {t('editor.revisions.download')}
              </Button>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
