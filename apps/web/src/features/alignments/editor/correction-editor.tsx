// The correction workspace: waveform, Praat-like spectrogram, a time ruler and the word and phone tiers
// to see, hear and fix an alignment; saves become revisions on the server, a selected stretch can be
// re-aligned. Everything works from the keyboard alone (key-map.ts): the tiers are one tab stop, Tab
// goes on to the controls after them.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent as ReactKeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { contentDirection } from '../../../lib/content-direction.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { formatNumber, formatPercent } from '../../../lib/format.ts';
import { useUser } from '../../../lib/api/get-user.ts';
import { useUiStore, toast } from '../../../stores/ui-store.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { formatClock } from '../../../components/alignment/time.ts';
import { CONFIDENCE_THRESHOLDS } from '../../../components/alignment/confidence-threshold.ts';
import { useRealignment } from '../api/get-realignment.ts';
import { useRevisions } from '../api/get-revisions.ts';
import { refreshRevisions, useRequestRealign, useSaveRevision } from '../api/revisions-api.ts';
import { AxisColumn } from './axis-column.tsx';
import { CheckPanel } from './check-panel.tsx';
import {
  canonicalEdge,
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
import { SHORTCUTS, ZOOM_STEP, editorAction } from './key-map.ts';
import type { EditorAction, KeyPlace } from './key-map.ts';
import { RevisionList } from './revision-list.tsx';
import { SelectionPanel, selectionSpan } from './selection-panel.tsx';
import { SpectrogramControls } from './spectrogram-controls.tsx';
import { loadSpectrogramSettings, saveSpectrogramSettings } from './spectrogram.ts';
import type { SpectrogramSettings } from './spectrogram.ts';
import { StretchPanel } from './stretch-panel.tsx';
import { BoundaryLines, TierLayer } from './tier-layer.tsx';
import type { FocusRequest, FocusTarget, Selection } from './tier-layer.tsx';
import { useEditHistory } from './use-edit-history.ts';
import { SPECTRO_HEIGHT, WAVE_HEIGHT, useWaveSurfer } from './use-wavesurfer.ts';
import type { Stretch } from './use-wavesurfer.ts';

const RATES = [0.25, 0.5, 0.75, 1, 1.25, 1.5];

const timed = (w: { start: number | null; end: number | null } | undefined) =>
  !!w && w.start !== null && w.end !== null;

export function CorrectionEditor({
  alignmentId,
  title,
  result,
  audioUrl,
}: {
  alignmentId: string;
  title: string;
  result: AlignmentResult;
  audioUrl: string | null;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const theme = useUiStore((s) => s.theme);
  const thresholdLevel = useUser().user?.preferences.confidence_threshold ?? 'medium';
  const threshold = CONFIDENCE_THRESHOLDS[thresholdLevel];
  // The revision the draft was made from. A new one (saved here, or a stretch re-aligned) becomes the
  // base of a fresh draft and undo history, without loading the audio again; the same revision fetched
  // again (a refetch) leaves the draft alone.
  const [base, setBase] = useState(result);
  const history = useEditHistory(result);
  const revision = base.revision?.number ?? 1;
  const { draft } = history;
  const dir = contentDirection(result.language);
  const baseName = title.replace(/[\\/:*?"<>|]+/g, '_').slice(0, 80) || 'alignment';

  const labelInput = useRef<HTMLInputElement>(null);
  const [settings, setSettings] = useState<SpectrogramSettings>(loadSpectrogramSettings);
  const [selection, setSelection] = useState<Selection>(null);
  const [range, setRange] = useState<{ anchor: number; from: number; to: number } | null>(null);
  const [edge, setEdge] = useState<EdgeRef | null>(null);
  const [focus, setFocus] = useState<FocusTarget | null>(null);
  const focusSeq = useRef(0);
  const [stretch, setStretch] = useState<Stretch | null>(null);
  const [stretchText, setStretchText] = useState('');
  const [labelEdit, setLabelEdit] = useState<{ key: string; value: string } | null>(null);
  const draftRef = useRef(draft);
  const [help, setHelp] = useState(false);
  const [rate, setRate] = useState(1);
  const [saveError, setSaveError] = useState<{ message: string; conflict: boolean } | null>(null);
  const [realignId, setRealignId] = useState<string | null>(null);

  if ((result.revision?.number ?? 1) !== revision) {
    setBase(result);
    history.reset(result);
    // a re-aligned stretch may renumber the words: what was selected is no longer what it was
    if (result.revision?.author === 'realign') {
      setStretch(null);
      setRange(null);
      setSelection(null);
      setEdge(null);
    }
  }

  const onRegion = useCallback((s: Stretch) => {
    setStretch(s);
    setStretchText(textBetween(draftRef.current, s.start, s.end));
  }, []);
  const { container, ws, regions, hosts, duration, ready, playing, time, zoom, pxPerSec, setZoomLevel } =
    useWaveSurfer({
      audioUrl,
      initialDuration: result.audio.duration,
      settings,
      theme,
      onRegion,
    });

  const body = useMemo(() => revisionBody(base, draft, revision), [base, draft, revision]);
  const dirty = body !== null;
  const playingWord = useMemo(() => (playing ? wordAtTime(draft, time) : -1), [draft, time, playing]);
  // the words the verdict says fit their audio poorly, by index
  const poorFit = useMemo(
    () => new Set(base.quality.reasons.find((r) => r.code === 'low_confidence')?.words ?? []),
    [base],
  );
  const toCheck = useMemo(() => wordsToCheck(draft, threshold, poorFit), [draft, threshold, poorFit]);

  useEffect(() => {
    draftRef.current = draft;
  }, [draft]);

  // the stretch drawn on the waveform goes once its re-alignment is a revision
  useEffect(() => {
    if (base.revision?.author === 'realign') regions.current?.clearRegions();
  }, [base, regions]);

  // Leaving with unsaved corrections asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const focusOn = (target: FocusRequest) => {
    focusSeq.current += 1;
    setFocus({ ...target, seq: focusSeq.current });
  };

  // The label field shows the selection's label until the user types in it.
  const selKey = selection ? JSON.stringify(selection) : '';
  const currentLabel = (() => {
    const w = selection ? draft.words[selection.word] : undefined;
    if (!selection || !w) return '';
    return selection.tier === 'word' ? w.word : (w.phones[selection.phone]?.phone ?? '');
  })();
  const label = labelEdit?.key === selKey ? labelEdit.value : currentLabel;

  const playSpan = (span: Stretch | null) => {
    if (span && ws.current) void ws.current.play(span.start, span.end);
  };

  /** Selects an interval, puts the cursor at its start and the keyboard on it. */
  const select = (s: Selection, keepRange = false) => {
    setSelection(s);
    setEdge(null);
    if (!keepRange) setRange(null);
    const span = selectionSpan(draftRef.current, s);
    if (span) ws.current?.setTime(span.start);
    if (s?.tier === 'word') focusOn({ kind: 'cell', tier: 'word', word: s.word });
    else if (s) focusOn({ kind: 'cell', tier: 'phone', word: s.word, phone: s.phone });
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
    select(selection);
  };

  const split = () => {
    if (selection?.tier !== 'phone') return;
    history.apply(splitPhone(draft, selection.word, selection.phone, time));
  };
  const merge = () => {
    if (selection?.tier !== 'phone') return;
    history.apply(mergePhones(draft, selection.word, selection.phone));
  };

  /** The stretch made of words [a, b] (positions): drawn on the waveform, its text in the panel. */
  const stretchOfWords = (a: number, b: number) => {
    const lo = draft.words[Math.min(a, b)]!;
    const hi = draft.words[Math.max(a, b)]!;
    if (!timed(lo) || !timed(hi)) return;
    regions.current?.clearRegions();
    regions.current?.addRegion({
      start: lo.start!,
      end: hi.end!,
      color: 'color-mix(in srgb, var(--accent) 18%, transparent)',
    });
    onRegion({ start: lo.start!, end: hi.end! });
  };

  const moveInTier = (step: 1 | -1, extend: boolean) => {
    const words = draft.words;
    if (!selection || selection.tier === 'word') {
      const from = extend && range ? (step > 0 ? range.to : range.from) : selection ? selection.word : -1;
      let i = from < 0 && step < 0 ? words.length : from;
      do i += step;
      while (i >= 0 && i < words.length && !timed(words[i]));
      if (i < 0 || i >= words.length) return;
      if (extend && selection) {
        const anchor = range?.anchor ?? selection.word;
        const next = { anchor, from: Math.min(anchor, i), to: Math.max(anchor, i) };
        setRange(next);
        setSelection({ tier: 'word', word: i });
        setEdge(null);
        focusOn({ kind: 'cell', tier: 'word', word: i });
        stretchOfWords(next.from, next.to);
        return;
      }
      select({ tier: 'word', word: i });
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

  const firstOrLast = (last: boolean) => {
    const words = draft.words;
    if (selection?.tier === 'phone') {
      const order = last ? [...words.keys()].reverse() : [...words.keys()];
      const w = order.find((i) => words[i]!.phones.length);
      if (w !== undefined) select({ tier: 'phone', word: w, phone: last ? words[w]!.phones.length - 1 : 0 });
      return;
    }
    const i = last ? words.findLastIndex(timed) : words.findIndex(timed);
    if (i >= 0) select({ tier: 'word', word: i });
  };

  const switchTier = (step: 1 | -1) => {
    if (!selection) return;
    if (step < 0 && selection.tier === 'phone') select({ tier: 'word', word: selection.word });
    else if (step > 0 && selection.tier === 'word' && draft.words[selection.word]?.phones.length)
      select({ tier: 'phone', word: selection.word, phone: 0 });
  };

  const focusEdge = (side: 'start' | 'end') => {
    // the boundaries of the selected interval (a boundary's own interval when one was dragged)
    const from = selection
      ? { word: selection.word, phone: selection.tier === 'phone' ? selection.phone : null }
      : null;
    if (!from || !timed(draft.words[from.word])) return;
    const ref = canonicalEdge(draft, { ...from, edge: side });
    setEdge(ref);
    focusOn({ kind: 'edge', ref });
  };

  const leaveEdge = () => {
    setEdge(null);
    if (selection) select(selection, true);
  };

  const save = useSaveRevision(alignmentId, {
    onSuccess: (created) => {
      setSaveError(null);
      toast.success(t('editor.saved', { n: created.revision }));
      // the keyboard goes back to where it was in the tiers (the Save button is now disabled)
      if (selection) select(selection, true);
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

  const realign = useRequestRealign(alignmentId, {
    onSuccess: (r) => setRealignId(r.id),
    onError: (e) => toast.error(e.message),
  });
  const realignment = useRealignment(alignmentId, realignId !== null);
  const realignState = realignId !== null && realignment.data?.id === realignId ? realignment.data : null;
  useEffect(() => {
    if (realignState?.status !== 'completed') return;
    toast.success(t('editor.stretch.done', { n: realignState.revision }));
    // the new revision becomes the base of a fresh draft (see `newRevision`)
    refreshRevisions(queryClient, alignmentId);
  }, [realignState, queryClient, alignmentId, t]);
  const realignRunning =
    realign.isPending || realignState?.status === 'queued' || realignState?.status === 'processing';

  const run = (a: EditorAction) => {
    switch (a.type) {
      case 'undo':
        return history.undo();
      case 'redo':
        return history.redo();
      case 'save':
        if (body !== null && !save.isPending) save.mutate(body);
        return;
      case 'playPause':
        return void ws.current?.playPause();
      case 'playSelection':
        return playSpan(edge ? null : (selectionSpan(draft, selection) ?? stretch));
      case 'move':
        return moveInTier(a.step, a.extend);
      case 'first':
        return firstOrLast(false);
      case 'last':
        return firstOrLast(true);
      case 'switchTier':
        return switchTier(a.step);
      case 'edge':
        return focusEdge(a.side);
      case 'nudge':
        if (edge) history.apply(nudgeEdge(draft, edge, a.delta));
        return;
      case 'leaveEdge':
        return leaveEdge();
      case 'editLabel':
        labelInput.current?.focus();
        labelInput.current?.select();
        return;
      case 'split':
        return split();
      case 'merge':
        return merge();
      case 'zoom':
        return zoomBy(a.factor);
      case 'nextCheck':
        return goToNextCheck();
      case 'help':
        return setHelp((h) => !h);
      case 'clear':
        setSelection(null);
        setRange(null);
        setEdge(null);
        return;
    }
  };

  const onKey = (e: ReactKeyboardEvent<HTMLElement>, place: KeyPlace) => {
    const action = editorAction(e, place);
    if (!action) return;
    e.preventDefault();
    e.stopPropagation();
    run(action);
  };

  // Outside the tiers only the Ctrl shortcuts act; fields keep their own keys (Ctrl+Z undoes typing).
  const onRootKey = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    const tag = (e.target as HTMLElement).tagName;
    const typing = tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
    if (typing && !((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's')) return;
    onKey(e, 'other');
  };

  const edgeAt = edge ? edgeTime(draft, edge) : null;

  return (
    <div onKeyDown={onRootKey} data-testid="correction-editor" className="min-w-0 space-y-4">
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label={t('editor.toolbar')}>
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
                {formatNumber(r)}×
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
        <div className="ms-auto flex flex-wrap items-center gap-1">
          <Button
            size="sm"
            variant="ghost"
            onClick={() => zoomBy(1 / ZOOM_STEP)}
            aria-label={t('editor.zoomOut')}
            aria-keyshortcuts="-"
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
            onClick={() => zoomBy(ZOOM_STEP)}
            aria-label={t('editor.zoomIn')}
            aria-keyshortcuts="+"
            disabled={!ready}
          >
            +
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setHelp((h) => !h)}
            aria-expanded={help}
            aria-controls="editor-shortcuts"
            aria-keyshortcuts="?"
          >
            {t('editor.help.open')}
          </Button>
        </div>
      </div>

      {help && (
        <section
          id="editor-shortcuts"
          className="rounded-xl border border-border bg-surface p-4"
          data-testid="shortcuts-help"
        >
          <h3 className="mb-2 font-semibold">{t('editor.help.title')}</h3>
          <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
            {SHORTCUTS.map(([k, v]) => (
              <div key={v} className="flex min-w-0 gap-3">
                <dt dir="ltr" className="w-40 shrink-0 whitespace-nowrap">
                  <kbd className="rounded border border-border bg-surface-2 px-1.5 font-mono text-xs">
                    {k}
                  </kbd>
                </dt>
                <dd className="min-w-0 text-muted">{t(`editor.help.${v}`)}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}

      <div className="rounded-xl border border-border bg-surface-2/50 p-2" aria-label={t('editor.waveform')}>
        <div dir="ltr" className="flex min-w-0">
          <AxisColumn maxHz={settings.maxHz} />
          <div
            ref={container}
            data-testid="editor-waveform"
            className="min-w-0 flex-1"
            style={{ minHeight: WAVE_HEIGHT + SPECTRO_HEIGHT }}
          />
        </div>
        {!audioUrl && <p className="text-sm text-muted">{t('common.loading')}</p>}
        <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1">
          <SpectrogramControls
            value={settings}
            onChange={(s) => {
              setSettings(s);
              saveSpectrogramSettings(s);
            }}
          />
          <span dir="ltr" className="ms-auto text-xs text-muted tabular-nums">
            {zoom ? `${Math.round(zoom)} px/s` : ''}
          </span>
        </div>
        <p className="mt-1 text-xs text-muted" id="tiers-help">
          {t('editor.tiersHint')}
        </p>
      </div>
      {hosts &&
        createPortal(
          <TierLayer
            draft={draft}
            duration={duration}
            dir={dir}
            pxPerSec={pxPerSec}
            selection={selection}
            range={range}
            edge={edge}
            playing={playingWord}
            focus={focus}
            threshold={threshold}
            poorFit={poorFit}
            labels={{
              grid: t('editor.tiers.grid'),
              words: t('editor.tiers.words'),
              phones: t('editor.tiers.phones'),
              missing: t('editor.check.missing'),
              low: (v) => t('editor.check.low', { value: formatPercent(v) }),
              corrected: t('editor.correctedByHand'),
              approximated: (m) =>
                m ? t('viewer.approximatedAs', { model: m }) : t('viewer.approximatedNone'),
              between: (a, b) => t('editor.boundaryBetween', { a, b }),
              startOf: (a) => t('editor.boundaryStart', { a }),
              endOf: (a) => t('editor.boundaryEnd', { a }),
            }}
            onSelect={(s) => select(s)}
            onEdge={(r) => {
              const ref = canonicalEdge(draft, r);
              setEdge(ref);
              setSelection(
                r.phone === null
                  ? { tier: 'word', word: r.word }
                  : { tier: 'phone', word: r.word, phone: r.phone },
              );
            }}
            onDrag={(r, at) => history.preview(moveEdge(draft, r, at))}
            onDragEnd={() => history.commit()}
            onKey={onKey}
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
          onClick={() => body !== null && save.mutate(body)}
          disabled={!dirty}
          loading={save.isPending}
          aria-keyshortcuts="Control+S"
        >
          {t('editor.save')}
        </Button>
        <span className="text-sm text-muted" data-testid="editor-state" role="status">
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
                refreshRevisions(queryClient, alignmentId);
              }}
            >
              {t('editor.reload')}
            </Button>
          )}
        </Alert>
      )}

      <div className="grid min-w-0 gap-4 lg:grid-cols-3">
        <SelectionPanel
          draft={draft}
          selection={selection}
          edgeAt={edgeAt}
          dir={dir}
          label={label}
          onLabel={(value) => setLabelEdit({ key: selKey, value })}
          onApply={applyLabel}
          onSplit={split}
          onMerge={merge}
          onLeaveLabel={() => selection && select(selection)}
          labelInput={labelInput}
        />
        <StretchPanel
          draft={draft}
          stretch={stretch}
          text={stretchText}
          onText={setStretchText}
          dir={dir}
          dirty={dirty}
          running={realignRunning}
          state={realignState}
          onRealign={() =>
            stretch && realign.mutate({ start: stretch.start, end: stretch.end, text: stretchText })
          }
          onClear={() => {
            regions.current?.clearRegions();
            setStretch(null);
            setRange(null);
          }}
        />
        <CheckPanel
          draft={draft}
          toCheck={toCheck}
          dir={dir}
          thresholdLabel={t('editor.check.threshold', {
            level: t(`profile.preferences.levels.${thresholdLevel}`),
            value: formatPercent(threshold),
          })}
          onSelect={(i) => {
            select({ tier: 'word', word: i });
            const w = draft.words[i]!;
            if (w.start !== null) ws.current?.setScrollTime(Math.max(0, w.start - 1));
          }}
          onNext={goToNextCheck}
        />
      </div>

      <RevisionList
        alignmentId={alignmentId}
        baseName={baseName}
        revisions={revisions.data ?? []}
        current={revision}
      />
    </div>
  );
}
