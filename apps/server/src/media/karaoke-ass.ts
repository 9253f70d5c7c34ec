// Karaoke subtitles for the MP4 export, as an ASS script rendered by ffmpeg's libass.
//
// Words are grouped into lines (a line ends at a segment boundary, before a pause, or when full). A
// line is shown from its first word's start to its last word's end (held over short gaps). Instead of
// the \k karaoke tags, whose sweep runs left to right whatever the script, each line is cut into
// consecutive events at word starts: already-spoken words in white, the current word in the accent
// colour, the rest dimmed. Colour runs are shaped and ordered by libass (HarfBuzz + FriBidi); the
// style's Encoding is -1, libass's switch for base-direction auto-detection, without which the runs of
// an Arabic line are laid out left to right (seen with libass 0.17).
import type { AlignmentResult, WordTiming } from '@tazamun/contracts/alignment-result';
import type { VideoRequest } from '@tazamun/contracts/exports';

const COLOURS = {
  spoken: '&H00FFFFFF&',
  current: '&H000B9EF5&', // #F59E0B
  pending: '&H00A0968F&', // #8F96A0
  processed: '&H00B8A394&',
};

export interface AssOptions extends VideoRequest {
  width: number;
  height: number;
  fontName: string;
}

interface LineWord {
  word: WordTiming;
  start: number | null;
  end: number | null;
}

interface Line {
  start: number;
  end: number;
  words: LineWord[];
}

/** ASS text: braces open override blocks and backslashes start tags, so neither may pass through. */
export function assText(s: string): string {
  return (
    s
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001F\u007F\u200E\u200F\u202A-\u202E\u2066-\u2069]/g, ' ')
      .replace(/\\/g, '\u29F5')
      .replace(/\{/g, '(')
      .replace(/\}/g, ')')
      .trim()
  );
}

export function assTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const h = Math.floor(cs / 360000);
  const m = Math.floor((cs % 360000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  const c = cs % 100;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(c).padStart(2, '0')}`;
}

export function buildLines(result: AlignmentResult, maxWords: number, maxGap = 1.2): Line[] {
  const segmentOf = new Map<number, number>();
  for (const s of result.segments) for (let i = s.word_start; i < s.word_end; i++) segmentOf.set(i, s.index);
  const words = [...result.words].sort((a, b) => a.index - b.index);
  const lines: Line[] = [];
  let cur: Line | null = null;
  let lastSeg: number | undefined;
  for (const w of words) {
    if (!assText(w.word)) continue;
    const timed = w.status === 'aligned' && w.start !== null && w.end !== null;
    if (!timed) {
      if (cur) cur.words.push({ word: w, start: null, end: null });
      continue;
    }
    const seg = segmentOf.get(w.index);
    const timedCount = cur ? cur.words.filter((x) => x.start !== null).length : 0;
    if (!cur || timedCount >= maxWords || seg !== lastSeg || w.start! - cur.end > maxGap) {
      cur = { start: w.start!, end: w.end!, words: [] };
      lines.push(cur);
    }
    cur.words.push({ word: w, start: w.start, end: w.end });
    cur.end = Math.max(cur.end, w.end!);
    lastSeg = seg;
  }
  // Hold a line until the next one when the gap is short, so the screen does not flicker.
  for (let i = 0; i < lines.length - 1; i++) {
    const next = lines[i + 1]!;
    if (next.start - lines[i]!.end < maxGap) lines[i]!.end = next.start;
  }
  return lines;
}

export function buildKaraokeAss(result: AlignmentResult, o: AssOptions): string {
  const fontSize = o.font_size ?? Math.round(o.height * 0.06);
  const small = Math.round(fontSize * 0.6);
  const alignment = o.position === 'top' ? 8 : o.position === 'center' ? 5 : 2;
  const marginV = Math.round(o.height * 0.08);
  const maxWords = Math.max(3, Math.round((o.width / fontSize) * 0.55));
  const header = [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${o.width}`,
    `PlayResY: ${o.height}`,
    'WrapStyle: 0',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: Karaoke,${o.fontName},${fontSize},${COLOURS.spoken},${COLOURS.pending},&H00000000&,&H80000000&,0,0,0,0,100,100,0,0,1,2,0,${alignment},${Math.round(o.width * 0.06)},${Math.round(o.width * 0.06)},${marginV},-1`,
    // semi-transparent white, in the top corner unless the words are at the top (then the bottom one)
    `Style: Watermark,Noto Sans,${small},&H60FFFFFF&,&H60FFFFFF&,&H00000000&,&H00000000&,1,0,0,0,100,100,0,0,1,0,0,${o.position === 'top' ? 3 : 9},0,${Math.round(o.width * 0.03)},${Math.round(o.height * 0.04)},-1`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
  ];
  const events: string[] = [];
  for (const line of buildLines(result, maxWords)) {
    const timed = line.words.map((w, i) => ({ ...w, i })).filter((w) => w.start !== null);
    const processed = o.show_processed_text
      ? assText(
          line.words
            .map((w) => w.word.normalized)
            .filter(Boolean)
            .join(' '),
        )
      : '';
    for (let k = 0; k < timed.length; k++) {
      const from = k === 0 ? line.start : timed[k]!.start!;
      const to = k + 1 < timed.length ? timed[k + 1]!.start! : line.end;
      if (to - from < 0.005) continue;
      const currentIndex = timed[k]!.i;
      const parts = line.words.map((w, i) => {
        const colour =
          i < currentIndex ? COLOURS.spoken : i === currentIndex ? COLOURS.current : COLOURS.pending;
        return `{\\c${colour}}${assText(w.word.word)}`;
      });
      let text = parts.join(' ');
      if (processed) text += `\\N{\\fs${small}\\c${COLOURS.processed}}${processed}`;
      events.push(`Dialogue: 0,${assTime(from)},${assTime(to)},Karaoke,,0,0,0,,${text}`);
    }
  }
  if (o.watermark)
    events.push(`Dialogue: 1,${assTime(0)},${assTime(result.audio.duration)},Watermark,,0,0,0,,Tazamun`);
  return `${[...header, ...events].join('\n')}\n`;
}
