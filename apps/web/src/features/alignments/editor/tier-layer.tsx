// The word and phone tiers and the boundary lines, drawn inside wavesurfer's own scrolling wrapper so
// they zoom and scroll with the waveform (positions are shares of the duration). That wrapper lives in
// a shadow root where the app's classes do not reach: inline styles with the theme's variables only.
import type { CSSProperties, PointerEvent as ReactPointerEvent } from 'react';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { LOW_CONFIDENCE, missingAt } from './edit-model.ts';
import type { EdgeRef } from './edit-model.ts';

export type Selection =
  { tier: 'word'; word: number } | { tier: 'phone'; word: number; phone: number } | null;

export const WORD_TIER_HEIGHT = 44;
export const PHONE_TIER_HEIGHT = 34;
const SAME = 1e-4;

const pct = (t: number, d: number): string => `${(t / d) * 100}%`;

export const edgeKey = (r: EdgeRef): string =>
  `${r.phone === null ? 'w' : 'p'}${r.word}${r.phone === null ? '' : `.${r.phone}`}-${r.edge}`;

interface Props {
  draft: AlignmentResult;
  duration: number;
  dir: 'rtl' | 'ltr';
  selection: Selection;
  edge: EdgeRef | null;
  playing: number;
  labels: { words: string; phones: string; missing: string; low: (v: number) => string };
  onSelect: (s: Selection) => void;
  onEdge: (r: EdgeRef) => void;
  onDrag: (r: EdgeRef, t: number) => void;
  onDragEnd: () => void;
}

function Handle({
  at,
  refEdge,
  duration,
  selected,
  height,
  onEdge,
  onDrag,
  onDragEnd,
}: {
  at: number;
  refEdge: EdgeRef;
  duration: number;
  selected: boolean;
  height: number;
  onEdge: Props['onEdge'];
  onDrag: Props['onDrag'];
  onDragEnd: Props['onDragEnd'];
}) {
  const timeOf = (e: ReactPointerEvent<HTMLElement>): number => {
    const host = (e.currentTarget.parentElement as HTMLElement).getBoundingClientRect();
    return ((e.clientX - host.left) / host.width) * duration;
  };
  return (
    <div
      data-boundary={edgeKey(refEdge)}
      data-time={at}
      role="separator"
      aria-orientation="vertical"
      aria-valuenow={at}
      onPointerDown={(e) => {
        e.stopPropagation();
        e.preventDefault();
        e.currentTarget.setPointerCapture(e.pointerId);
        onEdge(refEdge);
      }}
      onPointerMove={(e) => {
        if (e.currentTarget.hasPointerCapture(e.pointerId)) onDrag(refEdge, timeOf(e));
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
        left: pct(at, duration),
        width: 11,
        height,
        transform: 'translateX(-50%)',
        cursor: 'col-resize',
        zIndex: selected ? 4 : 3,
        touchAction: 'none',
      }}
    >
      <div
        style={{
          position: 'absolute',
          left: selected ? 4 : 5,
          width: selected ? 3 : 1,
          top: 0,
          bottom: 0,
          background: selected ? 'var(--ring)' : 'var(--fg)',
          opacity: selected ? 1 : 0.55,
        }}
      />
    </div>
  );
}

const labelStyle = (dir: 'rtl' | 'ltr'): CSSProperties => ({
  display: 'block',
  overflow: 'hidden',
  whiteSpace: 'nowrap',
  textOverflow: 'clip',
  textAlign: 'center',
  direction: dir,
  unicodeBidi: 'plaintext',
  padding: '0 3px',
});

/** The tiers under the spectrogram: intervals, their labels and their draggable boundaries. */
export function TierLayer(p: Props) {
  const { draft, duration, dir } = p;
  if (duration <= 0) return null;
  const words = draft.words;
  const tierBase: CSSProperties = {
    position: 'relative',
    borderTop: '1px solid var(--border)',
    background: 'var(--surface)',
    color: 'var(--fg)',
    font: '13px/1.2 system-ui, sans-serif',
  };
  const handles = (height: number, tier: 'word' | 'phone') => {
    const out: { at: number; ref: EdgeRef }[] = [];
    words.forEach((w, i) => {
      if (w.start === null || w.end === null) return;
      if (tier === 'word') {
        const prev = out.at(-1);
        if (!prev || Math.abs(prev.at - w.start) > SAME)
          out.push({ at: w.start, ref: { word: i, phone: null, edge: 'start' } });
        out.push({ at: w.end, ref: { word: i, phone: null, edge: 'end' } });
        return;
      }
      w.phones.forEach((ph, k) => {
        const prev = out.at(-1);
        if (!prev || Math.abs(prev.at - ph.start) > SAME)
          out.push({ at: ph.start, ref: { word: i, phone: k, edge: 'start' } });
        out.push({ at: ph.end, ref: { word: i, phone: k, edge: 'end' } });
      });
    });
    return out.map(({ at, ref }) => (
      <Handle
        key={edgeKey(ref)}
        at={at}
        refEdge={ref}
        duration={duration}
        height={height}
        selected={!!p.edge && edgeKey(p.edge) === edgeKey(ref)}
        onEdge={p.onEdge}
        onDrag={p.onDrag}
        onDragEnd={p.onDragEnd}
      />
    ));
  };

  return (
    <div
      data-testid="tiers"
      onPointerDown={(e) => e.stopPropagation()}
      onClick={(e) => e.stopPropagation()}
      style={{ position: 'relative', userSelect: 'none' }}
    >
      <div data-tier="words" aria-label={p.labels.words} style={{ ...tierBase, height: WORD_TIER_HEIGHT }}>
        {words.map((w, i) => {
          if (w.start === null || w.end === null) {
            const at = missingAt(draft, i);
            return (
              <button
                key={`m${i}`}
                type="button"
                data-word={i}
                data-missing="true"
                title={`${w.word}: ${p.labels.missing}`}
                onClick={() => p.onSelect({ tier: 'word', word: i })}
                style={{
                  position: 'absolute',
                  left: pct(at, duration),
                  bottom: 0,
                  transform: 'translateX(-50%)',
                  width: 0,
                  height: 0,
                  padding: 0,
                  border: 'none',
                  borderLeft: '7px solid transparent',
                  borderRight: '7px solid transparent',
                  borderBottom: '12px solid var(--danger)',
                  background: 'transparent',
                  cursor: 'pointer',
                  zIndex: 5,
                }}
              />
            );
          }
          const selected = p.selection?.tier === 'word' && p.selection.word === i;
          const low = w.confidence < LOW_CONFIDENCE;
          return (
            <button
              key={i}
              type="button"
              data-word={i}
              data-playing={p.playing === i || undefined}
              data-low={low || undefined}
              title={low ? `${w.word}: ${p.labels.low(w.confidence)}` : w.word}
              onClick={() => p.onSelect({ tier: 'word', word: i })}
              style={{
                position: 'absolute',
                top: 0,
                bottom: 0,
                left: pct(w.start, duration),
                width: pct(w.end - w.start, duration),
                padding: 0,
                border: 'none',
                borderBottom: low ? '3px solid var(--warning)' : '3px solid transparent',
                background: selected
                  ? 'var(--accent-soft)'
                  : p.playing === i
                    ? 'color-mix(in srgb, var(--accent) 22%, transparent)'
                    : low
                      ? 'var(--warning-soft)'
                      : 'transparent',
                outline: selected ? '2px solid var(--accent)' : 'none',
                outlineOffset: -2,
                color: 'inherit',
                font: 'inherit',
                fontWeight: p.playing === i ? 600 : 400,
                cursor: 'pointer',
              }}
            >
              <span style={labelStyle(dir)}>{w.word}</span>
            </button>
          );
        })}
        {handles(WORD_TIER_HEIGHT, 'word')}
      </div>
      <div
        data-tier="phones"
        aria-label={p.labels.phones}
        style={{ ...tierBase, height: PHONE_TIER_HEIGHT, borderBottom: '1px solid var(--border)' }}
      >
        {words.flatMap((w, i) =>
          w.phones.map((ph, k) => {
            const selected =
              p.selection?.tier === 'phone' && p.selection.word === i && p.selection.phone === k;
            return (
              <button
                key={`${i}.${k}`}
                type="button"
                data-phone={`${i}.${k}`}
                title={ph.ipa ?? ph.phone}
                onClick={() => p.onSelect({ tier: 'phone', word: i, phone: k })}
                style={{
                  position: 'absolute',
                  top: 0,
                  bottom: 0,
                  left: pct(ph.start, duration),
                  width: pct(ph.end - ph.start, duration),
                  padding: 0,
                  border: 'none',
                  background: selected ? 'var(--accent-soft)' : 'transparent',
                  outline: selected ? '2px solid var(--accent)' : 'none',
                  outlineOffset: -2,
                  color: 'var(--muted)',
                  font: 'inherit',
                  fontSize: 12,
                  cursor: 'pointer',
                }}
              >
                <span style={labelStyle('ltr')}>{ph.ipa ?? ph.phone}</span>
              </button>
            );
          }),
        )}
        {handles(PHONE_TIER_HEIGHT, 'phone')}
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
