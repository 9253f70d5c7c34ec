// WebVTT and SRT subtitles from the aligned words.
//
// Cues: consecutive words are grouped, `wordsPerLine` words to a line and `linesPerCue` lines to a cue;
// a cue also ends at a segment boundary of the result and before a pause longer than `maxGap`. A cue
// runs from its first word's start to its last word's end, lengthened to `minSegmentDuration` when
// shorter, but never into the next cue nor past the end of the audio: cues never overlap. Words not
// found in the audio are shown in the cue of the word before them (after it in the text), without a
// time of their own.
//
// timestamps = true:
// - WebVTT: karaoke-style inline timestamps, "<hh:mm:ss.mmm>" before every word after the first.
// - SRT has no inline timing, so it means one cue per word, each with the word's own start and end.
//
// Text safety: control characters and bidi overrides/isolates/marks are removed (safeText), so text
// cannot reorder a cue or break out of it; WebVTT escapes & < > as &amp; &lt; &gt;. In SRT, where
// players interpret <i>/<font> tags and {\...} override codes but no entities, < > { } are replaced
// with look-alikes ‹ › ( ). Right-to-left text keeps its logical order.
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { clock, revisionNote, safeText, timedWords, toMs, totalDuration } from './common.ts';

export interface SubtitleOptions {
  /** seconds; a shorter cue is lengthened up to the next cue */
  minSegmentDuration: number;
  wordsPerLine: number;
  linesPerCue: number;
  /** seconds of silence that end a cue */
  maxGap: number;
  timestamps: boolean;
}

export const DEFAULT_SUBTITLE_OPTIONS: SubtitleOptions = {
  minSegmentDuration: 1,
  wordsPerLine: 7,
  linesPerCue: 2,
  maxGap: 1.5,
  timestamps: false,
};

interface CueWord {
  text: string;
  startMs: number | null; // null: not found in the audio
}

interface Cue {
  startMs: number;
  endMs: number;
  words: CueWord[];
}

function buildCues(result: AlignmentResult, o: SubtitleOptions, perWord: boolean): Cue[] {
  const timed = timedWords(result);
  const timedByIndex = new Map(timed.map((t) => [t.word.index, t]));
  const segmentOf = new Map<number, number>();
  for (const s of result.segments) for (let i = s.word_start; i < s.word_end; i++) segmentOf.set(i, s.index);
  const perCue = perWord
    ? 1
    : Math.max(1, Math.floor(o.wordsPerLine)) * Math.max(1, Math.floor(o.linesPerCue));

  const cues: Cue[] = [];
  let cur: Cue | null = null;
  let curCount = 0;
  let lastEnd = 0;
  let lastSegment: number | undefined;
  const words = [...result.words].sort((a, b) => a.index - b.index);
  for (const w of words) {
    const text = safeText(w.word);
    if (!text) continue;
    const t = timedByIndex.get(w.index);
    if (!t) {
      // not found (or dropped as overlapping): text only, in the current cue
      if (cur && !perWord) cur.words.push({ text, startMs: null });
      continue;
    }
    const seg = segmentOf.get(w.index);
    const startNew =
      !cur ||
      curCount >= perCue ||
      (seg !== undefined && seg !== lastSegment) ||
      t.start - lastEnd > o.maxGap;
    if (startNew) {
      cur = { startMs: toMs(t.start), endMs: toMs(t.end), words: [] };
      cues.push(cur);
      curCount = 0;
    }
    const c = cur as Cue;
    c.words.push({ text, startMs: toMs(t.start) });
    c.endMs = Math.max(c.endMs, toMs(t.end));
    curCount++;
    lastEnd = t.end;
    lastSegment = seg;
  }

  // Minimum duration, without overlapping the next cue or running past the end of the audio (a last
  // short word lengthened to a second must not show after the recording ended); rounding must not
  // create overlaps either.
  const minMs = Math.max(0, Math.round(o.minSegmentDuration * 1000));
  const audioEndMs = toMs(totalDuration(result));
  for (let i = 0; i < cues.length; i++) {
    const c = cues[i] as Cue;
    const next = cues[i + 1];
    if (c.endMs - c.startMs < minMs) c.endMs = Math.max(c.endMs, Math.min(c.startMs + minMs, audioEndMs));
    if (next && c.endMs > next.startMs) c.endMs = Math.max(next.startMs, c.startMs + 1);
    if (next && next.startMs < c.endMs) next.startMs = c.endMs;
    if (c.endMs <= c.startMs) c.endMs = c.startMs + 1;
  }
  return cues;
}

function lines(words: string[], perLine: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i += perLine) out.push(words.slice(i, i + perLine).join(' '));
  return out;
}

export function escapeVtt(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeSrt(s: string): string {
  return s.replace(/</g, '‹').replace(/>/g, '›').replace(/\{/g, '(').replace(/\}/g, ')');
}

/** WebVTT (UTF-8). */
export function toWebVtt(result: AlignmentResult, options: Partial<SubtitleOptions> = {}): string {
  const o = { ...DEFAULT_SUBTITLE_OPTIONS, ...options };
  const perLine = Math.max(1, Math.floor(o.wordsPerLine));
  const cues = buildCues(result, o, false);
  const blocks = ['WEBVTT'];
  const note = revisionNote(result);
  if (note) blocks.push(`NOTE ${note}`);
  cues.forEach((c, i) => {
    const rendered = c.words.map((w, j) => {
      const text = escapeVtt(w.text);
      if (!o.timestamps || j === 0 || w.startMs === null) return text;
      // an inline timestamp must lie inside the cue and not go backwards
      const at = Math.min(Math.max(w.startMs, c.startMs), c.endMs);
      return `<${clock(at, '.')}>${text}`;
    });
    blocks.push(
      `${i + 1}\n${clock(c.startMs, '.')} --> ${clock(c.endMs, '.')}\n${lines(rendered, perLine).join('\n')}`,
    );
  });
  return `${blocks.join('\n\n')}\n`;
}

/** SubRip (UTF-8, CRLF line ends as most players expect). */
export function toSrt(result: AlignmentResult, options: Partial<SubtitleOptions> = {}): string {
  const o = { ...DEFAULT_SUBTITLE_OPTIONS, ...options };
  const perLine = Math.max(1, Math.floor(o.wordsPerLine));
  const cues = buildCues(result, o, o.timestamps);
  const blocks = cues.map(
    (c, i) =>
      `${i + 1}\r\n${clock(c.startMs, ',')} --> ${clock(c.endMs, ',')}\r\n` +
      lines(
        c.words.map((w) => escapeSrt(w.text)),
        perLine,
      ).join('\r\n'),
  );
  return blocks.length ? `${blocks.join('\r\n\r\n')}\r\n` : '';
}

/** Exposed for tests and previews: the words each cue holds. */
export function cueWords(result: AlignmentResult, options: Partial<SubtitleOptions> = {}): string[][] {
  return buildCues(result, { ...DEFAULT_SUBTITLE_OPTIONS, ...options }, false).map((c) =>
    c.words.map((w) => w.text),
  );
}
