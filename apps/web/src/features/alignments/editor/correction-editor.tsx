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
import { formatPercent } from '../../../lib/format.ts';
import { useUser } from '../../../lib/api/get-user.ts';
import { useUiStore, toast } from '../../../stores/ui-store.ts';
import { CONFIDENCE_THRESHOLDS } from '../../../components/alignment/confidence-threshold.ts';
import { useRealignment } from '../api/get-realignment.ts';
import { useRevisions } from '../api/get-revisions.ts';
import { refreshRevisions, useRequestRealign, useSaveRevision } from '../api/revisions-api.ts';
import { CheckPanel } from './check-panel.tsx';
import { EditorToolbar } from './editor-toolbar.tsx';
import {
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
import { ZOOM_STEP, editorAction } from './key-map.ts';
import type { EditorAction, KeyPlace } from './key-map.ts';
import { RevisionList } from './revision-list.tsx';
import { SaveBar } from './save-bar.tsx';
import type { SaveError } from './save-bar.tsx';
import { SelectionPanel, selectionSpan } from './selection-panel.tsx';
import { ShortcutsHelp } from './shortcuts-help.tsx';
import { loadSpectrogramSettings, saveSpectrogramSettings } from './spectrogram.ts';
import type { SpectrogramSettings } from './spectrogram.ts';
import { StretchPanel } from './stretch-panel.tsx';
import { BoundaryLines, TierLayer } from './tier-layer.tsx';
import { useEditHistory } from './use-edit-history.ts';
import { timed, useTierSelection } from './use-tier-selection.ts';
import { useWaveSurfer } from './use-wavesurfer.ts';
import type { Stretch } from './use-wavesurfer.ts';
import { WaveformPanel } from './waveform-panel.tsx';

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
  const [stretch, setStretch] = useState<Stretch | null>(null);
  const [stretchText, setStretchText] = useState('');
  const [labelEdit, setLabelEdit] = useState<{ key: string; value: string } | null>(null);
  const draftRef = useRef(draft);
  const [help, setHelp] = useState(false);
  const [rate, setRate] = useState(1);
  const [saveError, setSaveError] = useState<SaveError | null>(null);
  const [realignId, setRealignId] = useState<string | null>(null);

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
  const tiers = useTierSelection({
    draft,
    seek: (seconds) => ws.current?.setTime(seconds),
    onRange: stretchOfWords,
  });
  const { selection, range, edge, focus, select } = tiers;

  if ((result.revision?.number ?? 1) !== revision) {
    setBase(result);
    history.reset(result);
    // a re-aligned stretch may renumber the words: what was selected is no longer what it was
    if (result.revision?.author === 'realign') {
      setStretch(null);
      tiers.clear();
    }
  }

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
        return tiers.move(a.step, a.extend);
      case 'first':
        return tiers.firstOrLast(false);
      case 'last':
        return tiers.firstOrLast(true);
      case 'switchTier':
        return tiers.switchTier(a.step);
      case 'edge':
        return tiers.focusEdge(a.side);
      case 'nudge':
        if (edge) history.apply(nudgeEdge(draft, edge, a.delta));
        return;
      case 'leaveEdge':
        return tiers.leaveEdge();
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
        return tiers.clear();
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
      <EditorToolbar
        ready={ready}
        playing={playing}
        canPlaySelection={!!selection || !!stretch}
        rate={rate}
        time={time}
        help={help}
        onPlayPause={() => void ws.current?.playPause()}
        onPlaySelection={() => playSpan(selectionSpan(draft, selection) ?? stretch)}
        onRate={(r) => {
          setRate(r);
          ws.current?.setPlaybackRate(r, true);
        }}
        onZoomOut={() => zoomBy(1 / ZOOM_STEP)}
        onZoomFit={() => setZoomLevel(0)}
        onZoomIn={() => zoomBy(ZOOM_STEP)}
        onHelp={() => setHelp((h) => !h)}
      />
      {help && <ShortcutsHelp />}
      <WaveformPanel
        container={container}
        loading={!audioUrl}
        settings={settings}
        onSettings={(s) => {
          setSettings(s);
          saveSpectrogramSettings(s);
        }}
        zoom={zoom}
      />
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
            onEdge={tiers.grabEdge}
            onDrag={(r, at) => history.preview(moveEdge(draft, r, at))}
            onDragEnd={() => history.commit()}
            onKey={onKey}
          />,
          hosts.tiers,
        )}
      {hosts && createPortal(<BoundaryLines draft={draft} duration={duration} edge={edge} />, hosts.lines)}

      <SaveBar
        revision={revision}
        dirty={dirty}
        saving={save.isPending}
        canUndo={history.canUndo}
        canRedo={history.canRedo}
        error={saveError}
        onUndo={history.undo}
        onRedo={history.redo}
        onSave={() => body !== null && save.mutate(body)}
        onReload={() => {
          setSaveError(null);
          refreshRevisions(queryClient, alignmentId);
        }}
      />

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
            tiers.clearRange();
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
