// The time ruler, the word and phone tiers and the boundary lines, drawn inside wavesurfer's own
// scrolling wrapper so they zoom and scroll with the waveform (positions are shares of the duration).
// That wrapper lives in a shadow root where the app's classes do not reach: inline styles with the
// theme's variables only.
//
// The tiers are one composite widget (ARIA grid, two rows): a single tab stop, the selected interval
// holding tabIndex 0; the arrows move between intervals and tiers (key-map.ts). Each boundary is a
// focusable splitter (role separator, its time as value) inside the interval it ends or starts.
import { useEffect, useRef } from 'react';
import type {
  CSSProperties,
  KeyboardEvent as ReactKeyboardEvent,
  PointerEvent as ReactPointerEvent,
} from 'react';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { edgeRange, missingAt } from './edit-model.ts';
import type { EdgeRef } from './edit-model.ts';
import type { KeyPlace } from './key-map.ts';
import { timeTicks } from './spectrogram.ts';

export type Selection =
  { tier: 'word'; word: number } | { tier: 'phone'; word: number; phone: number } | null;

/** What the keyboard should be on: an interval or a boundary. */
export type FocusRequest =
  | { kind: 'cell'; tier: 'word'; word: number }
  | { kind: 'cell'; tier: 'phone'; word: number; phone: number }
  | { kind: 'edge'; ref: EdgeRef };
/** A focus request numbered, so asking for the same place again focuses it again. */
export type FocusTarget = FocusRequest & { seq: number };

export const RULER_HEIGHT = 20;
export const WORD_TIER_HEIGHT = 44;
export const PHONE_TIER_HEIGHT = 34;
const SAME = 1e-4;

const pct = (t: number, d: number): string => `${(t / d) * 100}%`;
const r3 = (x: number): string => x.toFixed(3);

export const edgeKey = (r: EdgeRef): string =>
  `${r.phone === null ? 'w' : 'p'}${r.word}${r.phone === null ? '' : `.${r.phone}`}-${r.edge}`;

export interface TierLabels {
  grid: string;
  words: string;
  phones: string;
  missing: string;
  low: (value: number) => string;
  corrected: string;
  /** a phone the model had no phone of its own for, given the stand-in it scored ('' when none) */
  approximated: (modelPhone: string) => string;
  /** a boundary's name: between two labels, or the start or end of one */
  between: (a: string, b: string) => string;
  startOf: (a: string) => string;
  endOf: (a: string) => string;
}

interface Props {
  draft: AlignmentResult;
  duration: number;
  dir: 'rtl' | 'ltr';
  pxPerSec: number;
  selection: Selection;
  /** a range of word positions selected with Shift+arrows (a stretch) */
  range: { from: number; to: number } | null;
  edge: EdgeRef | null;
  playing: number;
  focus: FocusTarget | null;
  /** a word is to check below this confidence (the account's threshold) */
  threshold: number;
  poorFit: ReadonlySet<number>;
  labels: TierLabels;
  onSelect: (s: Selection) => void;
  onEdge: (r: EdgeRef) => void;
  onDrag: (r: EdgeRef, t: number) => void;
  onDragEnd: () => void;
  onKey: (e: ReactKeyboardEvent<HTMLElement>, place: KeyPlace) => void;
}

interface Boundary {
  at: number;
  ref: EdgeRef;
  label: string;
  /** the narrower of the intervals on each side, in px: the handle never covers more than 30 % of it */
  narrowest: number;
  /** where in its interval it sits */
  side: 'start' | 'end';
}

function Handle({
  b,
  height,
  selected,
  draft,
  duration,
  onEdge,
  onDrag,
  onDragEnd,
}: {
  b: Boundary;
  height: number;
  selected: boolean;
  draft: AlignmentResult;
  duration: number;
  onEdge: Props['onEdge'];
  onDrag: Props['onDrag'];
  onDragEnd: Props['onDragEnd'];
}) {
  // the tier's row: its width is the whole recording's
  const timeOf = (e: ReactPointerEvent<HTMLElement>): number => {
    const row = e.currentTarget.closest('[data-tier]') as HTMLElement;
    const box = row.getBoundingClientRect();
    return ((e.clientX - box.left) / box.width) * duration;
  };
  const width = Math.max(2, Math.min(11, Math.round(b.narrowest * 0.3)));
  const range = edgeRange(draft, b.ref);
  return (
    <div
      data-boundary={edgeKey(b.ref)}
      data-time={b.at}
      role="separator"
      aria-orientation="vertical"
      aria-label={b.label}
      aria-valuenow={b.at}
      aria-valuemin={range ? Math.min(range.lo, b.at) : 0}
      aria-valuemax={range ? Math.max(range.hi, b.at) : duration}
      aria-valuetext={`${r3(b.at)} s`}
      tabIndex={-1}
      onPointerDown={(e) => {
        e.stopPropagation();
        e.preventDefault();
        e.currentTarget.setPointerCapture(e.pointerId);
        e.currentTarget.focus({ preventScroll: true });
        onEdge(b.ref);
      }}
      onPointerMove={(e) => {
        if (e.currentTarget.hasPointerCapture(e.pointerId)) onDrag(b.ref, timeOf(e));
      }}
      onPointerUp={(e) => {
        if (!e.currentTarget.hasPointerCapture(e.pointerId)) return;
        e.currentTarget.releasePointerCapture(e.pointerId);
        onDragEnd();
      }}
      onClick={(e) => e.stopPropagation()}
      style={{
        position: 'absolute',
        top: 0,
        left: b.side === 'start' ? 0 : '100%',
        width,
        height,
        transform: 'translateX(-50%)',
        cursor: 'col-resize',
        zIndex: selected ? 4 : 2,
        touchAction: 'none',
        outline: 'none',
      }}
    >
      <div
        style={{
          position: 'absolute',
          left: '50%',
          transform: 'translateX(-50%)',
          width: selected ? 3 : 1,
          top: 0,
          bottom: 0,
          background: selected ? 'var(--ring)' : 'var(--fg)',
          opacity: selected ? 1 : 0.55,
          boxShadow: selected ? '0 0 0 2px color-mix(in srgb, var(--ring) 35%, transparent)' : 'none',
        }}
      />
    </div>
  );
}

const FOCUS_STYLE = `
[role='gridcell']:focus-visible { outline: 2px solid var(--ring) !important; outline-offset: -2px; }
[role='separator']:focus-visible > div { width: 3px !important; background: var(--ring) !important; opacity: 1 !important; }
`;

const labelStyle = (dir: 'rtl' | 'ltr', hidden: boolean): CSSProperties => ({
  display: 'block',
  overflow: 'hidden',
  whiteSpace: 'nowrap',
  textOverflow: 'ellipsis',
  textAlign: 'center',
  direction: dir,
  unicodeBidi: 'plaintext',
  padding: '0 2px',
  visibility: hidden ? 'hidden' : 'visible',
});

/** The ruler, the tiers under the spectrogram: intervals, their labels and their movable boundaries. */
export function TierLayer(p: Props) {
  const { draft, duration, dir, pxPerSec } = p;
  const root = useRef<HTMLDivElement>(null);
  const words = draft.words;

  // Keyboard focus follows the editor's target (arrows, [ ], N, a click), inside the shadow root.
  useEffect(() => {
    const f = p.focus;
    const el = root.current;
    if (!f || !el) return;
    const selector =
      f.kind === 'edge'
        ? `[data-boundary="${edgeKey(f.ref)}"]`
        : f.tier === 'word'
          ? `[data-tier="words"] [data-word="${f.word}"]`
          : `[data-phone="${f.word}.${f.phone}"]`;
    const target = el.querySelector<HTMLElement>(selector);
    if (!target) return;
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [p.focus]);

  if (duration <= 0) return null;
  const px = (seconds: number) => seconds * (pxPerSec || 1);
  const tierBase: CSSProperties = {
    position: 'relative',
    borderTop: '1px solid var(--border)',
    background: 'var(--surface)',
    color: 'var(--fg)',
    font: '13px/1.2 system-ui, sans-serif',
  };

  // Which interval holds the tab stop: the selection, else the first word with a time.
  const firstTimed = words.findIndex((w) => w.start !== null && w.end !== null);
  const stop = p.selection ?? (firstTimed >= 0 ? ({ tier: 'word', word: firstTimed } as const) : null);

  const wordBoundaries = (i: number): Boundary[] => {
    const w = words[i]!;
    const out: Boundary[] = [];
    let prev = -1;
    for (let k = i - 1; k >= 0; k--)
      if (words[k]!.start !== null && words[k]!.end !== null) {
        prev = k;
        break;
      }
    let next = -1;
    for (let k = i + 1; k < words.length; k++)
      if (words[k]!.start !== null && words[k]!.end !== null) {
        next = k;
        break;
      }
    const own = px(w.end! - w.start!);
    const pw = prev >= 0 ? words[prev]! : null;
    if (!pw || Math.abs(pw.end! - w.start!) > SAME)
      out.push({
        at: w.start!,
        ref: { word: i, phone: null, edge: 'start' },
        label: p.labels.startOf(w.word),
        narrowest: own,
        side: 'start',
      });
    const nw = next >= 0 ? words[next]! : null;
    const shared = nw && Math.abs(nw.start! - w.end!) <= SAME;
    out.push({
      at: w.end!,
      ref: { word: i, phone: null, edge: 'end' },
      label: shared ? p.labels.between(w.word, nw.word) : p.labels.endOf(w.word),
      narrowest: shared ? Math.min(own, px(nw.end! - nw.start!)) : own,
      side: 'end',
    });
    return out;
  };

  const phoneBoundaries = (i: number, k: number): Boundary[] => {
    const w = words[i]!;
    const ph = w.phones[k]!;
    const out: Boundary[] = [];
    // the phone before, in this word or at the end of the word before
    const before =
      k > 0
        ? w.phones[k - 1]
        : words
            .slice(0, i)
            .findLast((x) => x.phones.length)
            ?.phones.at(-1);
    const after =
      k + 1 < w.phones.length ? w.phones[k + 1] : words.slice(i + 1).find((x) => x.phones.length)?.phones[0];
    const own = px(ph.end - ph.start);
    if (!before || Math.abs(before.end - ph.start) > SAME)
      out.push({
        at: ph.start,
        ref: { word: i, phone: k, edge: 'start' },
        label: p.labels.startOf(ph.phone),
        narrowest: own,
        side: 'start',
      });
    const shared = after && Math.abs(after.start - ph.end) <= SAME;
    out.push({
      at: ph.end,
      ref: { word: i, phone: k, edge: 'end' },
      label: shared ? p.labels.between(ph.phone, after.phone) : p.labels.endOf(ph.phone),
      narrowest: shared ? Math.min(own, px(after.end - after.start)) : own,
      side: 'end',
    });
    return out;
  };

  const handles = (bs: Boundary[], height: number) =>
    bs.map((b) => (
      <Handle
        key={edgeKey(b.ref)}
        b={b}
        height={height}
        draft={draft}
        duration={duration}
        selected={!!p.edge && edgeKey(p.edge) === edgeKey(b.ref)}
        onEdge={p.onEdge}
        onDrag={p.onDrag}
        onDragEnd={p.onDragEnd}
      />
    ));

  const onKeyDown = (e: ReactKeyboardEvent<HTMLElement>) => {
    const t = e.target as HTMLElement;
    p.onKey(e, t.dataset.boundary ? 'edge' : t.getAttribute('role') === 'gridcell' ? 'cell' : 'other');
  };

  return (
    <div
      ref={root}
      data-testid="tiers"
      onPointerDown={(e) => e.stopPropagation()}
      onClick={(e) => e.stopPropagation()}
      style={{ position: 'relative', userSelect: 'none' }}
    >
      {/* the keyboard's place is always visible (this sits in wavesurfer's shadow root, so a style
          element of its own: the app's stylesheet does not reach it) */}
      <style>{FOCUS_STYLE}</style>
      <div
        aria-hidden
        data-testid="time-ruler"
        style={{
          position: 'relative',
          height: RULER_HEIGHT,
          borderTop: '1px solid var(--border)',
          background: 'var(--surface)',
          color: 'var(--muted)',
          font: '11px/1 system-ui, sans-serif',
          fontVariantNumeric: 'tabular-nums',
          overflow: 'hidden',
        }}
      >
        {timeTicks(duration, pxPerSec).map(({ t, label }) => (
          <div
            key={t}
            data-tick={label ?? undefined}
            style={{
              position: 'absolute',
              left: pct(t, duration),
              top: 0,
              height: label ? 8 : 4,
              width: 1,
              background: 'var(--muted)',
              opacity: label ? 0.8 : 0.5,
            }}
          >
            {label && (
              <span style={{ position: 'absolute', top: 8, left: 3, whiteSpace: 'nowrap' }}>{label}</span>
            )}
          </div>
        ))}
      </div>
      <div role="grid" aria-label={p.labels.grid} aria-rowcount={2} onKeyDown={onKeyDown}>
        <div
          role="row"
          data-tier="words"
          aria-label={p.labels.words}
          style={{ ...tierBase, height: WORD_TIER_HEIGHT }}
        >
          {words.map((w, i) => {
            if (w.start === null || w.end === null) {
              const at = missingAt(draft, i);
              return (
                <div
                  key={`m${i}`}
                  role="gridcell"
                  tabIndex={-1}
                  data-word={i}
                  data-missing="true"
                  aria-label={`${w.word}: ${p.labels.missing}`}
                  title={`${w.word}: ${p.labels.missing}`}
                  onClick={() => p.onSelect({ tier: 'word', word: i })}
                  style={{
                    position: 'absolute',
                    left: pct(at, duration),
                    bottom: 0,
                    transform: 'translateX(-50%)',
                    width: 0,
                    height: 0,
                    borderLeft: '7px solid transparent',
                    borderRight: '7px solid transparent',
                    borderBottom: '12px solid var(--danger)',
                    cursor: 'pointer',
                    zIndex: 5,
                  }}
                />
              );
            }
            const selected = p.selection?.tier === 'word' && p.selection.word === i;
            const inRange = !!p.range && i >= p.range.from && i <= p.range.to;
            const low = w.confidence < p.threshold || p.poorFit.has(w.index);
            const isStop = stop?.tier === 'word' && stop.word === i;
            const width = px(w.end - w.start);
            const name = [
              w.word,
              `${r3(w.start)}–${r3(w.end)} s`,
              low ? p.labels.low(w.confidence) : null,
              w.hand_corrected ? p.labels.corrected : null,
            ]
              .filter(Boolean)
              .join(', ');
            return (
              <div
                key={i}
                role="gridcell"
                tabIndex={isStop ? 0 : -1}
                aria-selected={selected || inRange}
                aria-label={name}
                data-word={i}
                data-playing={p.playing === i || undefined}
                data-low={low || undefined}
                title={name}
                // the selection follows the keyboard: Tab into the tiers selects the interval it lands on
                // (not when a boundary inside it takes the focus: React's focus events bubble)
                onFocus={(e) =>
                  e.target === e.currentTarget &&
                  !selected &&
                  !inRange &&
                  p.onSelect({ tier: 'word', word: i })
                }
                onClick={(e) => {
                  e.currentTarget.focus({ preventScroll: true });
                  p.onSelect({ tier: 'word', word: i });
                }}
                style={{
                  position: 'absolute',
                  top: 0,
                  bottom: 0,
                  left: pct(w.start, duration),
                  width: pct(w.end - w.start, duration),
                  borderBottom: low ? '3px solid var(--warning)' : '3px solid transparent',
                  background:
                    selected || inRange
                      ? 'var(--accent-soft)'
                      : p.playing === i
                        ? 'color-mix(in srgb, var(--accent) 22%, transparent)'
                        : low
                          ? 'var(--warning-soft)'
                          : 'transparent',
                  boxShadow: selected ? 'inset 0 0 0 2px var(--accent)' : 'none',
                  outline: 'none',
                  fontWeight: p.playing === i ? 600 : 400,
                  cursor: 'pointer',
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: 'center',
                }}
              >
                <span style={labelStyle(dir, width < 10)}>{w.word}</span>
                {handles(wordBoundaries(i), WORD_TIER_HEIGHT)}
              </div>
            );
          })}
        </div>
        <div
          role="row"
          data-tier="phones"
          aria-label={p.labels.phones}
          style={{ ...tierBase, height: PHONE_TIER_HEIGHT, borderBottom: '1px solid var(--border)' }}
        >
          {words.flatMap((w, i) =>
            w.phones.map((ph, k) => {
              const selected =
                p.selection?.tier === 'phone' && p.selection.word === i && p.selection.phone === k;
              const width = px(ph.end - ph.start);
              const note = ph.approximated ? `, ${p.labels.approximated(ph.model_phone)}` : '';
              const name = `${ph.phone}${ph.model_phone ? ` (${ph.model_phone})` : ''}${note}, ${w.word}, ${r3(ph.start)}–${r3(ph.end)} s`;
              return (
                <div
                  key={`${i}.${k}`}
                  role="gridcell"
                  tabIndex={stop?.tier === 'phone' && stop.word === i && stop.phone === k ? 0 : -1}
                  aria-selected={selected}
                  aria-label={name}
                  data-phone={`${i}.${k}`}
                  title={name}
                  onFocus={(e) =>
                    e.target === e.currentTarget &&
                    !selected &&
                    p.onSelect({ tier: 'phone', word: i, phone: k })
                  }
                  onClick={(e) => {
                    e.currentTarget.focus({ preventScroll: true });
                    p.onSelect({ tier: 'phone', word: i, phone: k });
                  }}
                  style={{
                    position: 'absolute',
                    top: 0,
                    bottom: 0,
                    left: pct(ph.start, duration),
                    width: pct(ph.end - ph.start, duration),
                    background: selected ? 'var(--accent-soft)' : 'transparent',
                    boxShadow: selected ? 'inset 0 0 0 2px var(--accent)' : 'none',
                    outline: 'none',
                    color: 'var(--muted)',
                    fontSize: 12,
                    cursor: 'pointer',
                    display: 'flex',
                    alignItems: 'center',
                    justifyContent: 'center',
                  }}
                >
                  <span
                    data-approximated={ph.approximated ? ph.model_phone || 'none' : undefined}
                    style={{
                      ...labelStyle('ltr', width < 9),
                      // a phone the model had no phone of its own for, as in the word table
                      ...(ph.approximated
                        ? { textDecoration: 'underline dotted', textUnderlineOffset: 3 }
                        : {}),
                    }}
                  >
                    {ph.phone}
                  </span>
                  {handles(phoneBoundaries(i, k), PHONE_TIER_HEIGHT)}
                </div>
              );
            }),
          )}
        </div>
      </div>
    </div>
  );
}

/** Word boundaries drawn across the waveform and spectrogram above the tiers. */
export function BoundaryLines({
  draft,
  duration,
  edge,
}: {
  draft: AlignmentResult;
  duration: number;
  edge: EdgeRef | null;
}) {
  if (duration <= 0) return null;
  const times = new Set<number>();
  for (const w of draft.words) {
    if (w.start !== null) times.add(w.start);
    if (w.end !== null) times.add(w.end);
  }
  const selectedAt =
    edge &&
    (edge.phone === null
      ? draft.words[edge.word]?.[edge.edge]
      : draft.words[edge.word]?.phones[edge.phone]?.[edge.edge]);
  return (
    <div style={{ position: 'absolute', inset: 0, pointerEvents: 'none', zIndex: 3 }}>
      {[...times].map((t) => (
        <div
          key={t}
          style={{
            position: 'absolute',
            top: 0,
            bottom: 0,
            left: pct(t, duration),
            width: 1,
            background: t === selectedAt ? 'var(--ring)' : 'var(--accent)',
            opacity: t === selectedAt ? 0.95 : 0.45,
          }}
        />
      ))}
    </div>
  );
}
