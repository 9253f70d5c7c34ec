// The Montreal Forced Aligner's corpus layout: a recording and its transcript share a base name in the
// same folder, at any depth (spk0/utt0.wav + spk0/utt0.lab). The transcript is a .lab or .txt file, or a
// TextGrid whose single tier holds it. Used on the paths of a zip (server batch) and of a folder (CLI).

export const CORPUS_AUDIO_EXTENSIONS = ['wav', 'mp3', 'm4a', 'ogg', 'flac'] as const;
/** When a base name has several transcripts, the first of these wins (MFA reads .lab before .txt). */
export const CORPUS_TEXT_EXTENSIONS = ['lab', 'txt', 'textgrid'] as const;

export type CorpusSkipReason =
  'no_transcript' | 'no_recording' | 'duplicate_recording' | 'duplicate_transcript' | 'not_corpus_file';

export interface CorpusPair {
  /** the path without its extension: the name of the alignment and of its exports (spk0/utt0) */
  base: string;
  audio: string;
  transcript: string;
}

export interface CorpusLayout {
  pairs: CorpusPair[];
  skipped: { name: string; reason: CorpusSkipReason }[];
}

function split(path: string): { base: string; ext: string } {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  if (dot <= slash + 1) return { base: path, ext: '' };
  return { base: path.slice(0, dot), ext: path.slice(dot + 1).toLowerCase() };
}

/** Folders and dotfiles an archiver adds on its own (macOS resource forks, Finder and git metadata). */
export function isArchiverNoise(path: string): boolean {
  return path.endsWith('/') || path.split('/').some((seg) => seg.startsWith('.') || seg === '__MACOSX');
}

/** Pairs the files of a corpus by base name. Paths use "/"; the result is sorted by base name. */
export function pairCorpus(paths: string[]): CorpusLayout {
  const audio = new Map<string, string>();
  const text = new Map<string, string>();
  const skipped: CorpusLayout['skipped'] = [];
  const rank = (p: string) => CORPUS_TEXT_EXTENSIONS.indexOf(split(p).ext as never);
  for (const path of [...paths].sort()) {
    if (isArchiverNoise(path)) continue;
    const { base, ext } = split(path);
    if ((CORPUS_AUDIO_EXTENSIONS as readonly string[]).includes(ext)) {
      if (audio.has(base)) skipped.push({ name: path, reason: 'duplicate_recording' });
      else audio.set(base, path);
    } else if ((CORPUS_TEXT_EXTENSIONS as readonly string[]).includes(ext)) {
      const held = text.get(base);
      if (held === undefined) text.set(base, path);
      else if (rank(path) < rank(held)) {
        skipped.push({ name: held, reason: 'duplicate_transcript' });
        text.set(base, path);
      } else skipped.push({ name: path, reason: 'duplicate_transcript' });
    } else skipped.push({ name: path, reason: 'not_corpus_file' });
  }
  const pairs: CorpusPair[] = [];
  for (const [base, a] of audio) {
    const t = text.get(base);
    if (t === undefined) skipped.push({ name: a, reason: 'no_transcript' });
    else pairs.push({ base, audio: a, transcript: t });
  }
  for (const [base, t] of text) if (!audio.has(base)) skipped.push({ name: t, reason: 'no_recording' });
  pairs.sort((x, y) => (x.base < y.base ? -1 : x.base > y.base ? 1 : 0));
  skipped.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return { pairs, skipped };
}

export function isTextGridPath(path: string): boolean {
  return split(path).ext === 'textgrid';
}

export type TextGridProblem = 'not_textgrid' | 'tiers' | 'malformed';

/** The fewest characters one item takes (a point: a number, a separator and an empty label, `0 ""`). */
const MIN_ITEM_CHARS = 4;

/**
 * The tokens of a TextGrid one at a time: quoted strings (with "" as an escaped quote) and bare
 * words/numbers; the long format's "name = value" labels and brackets are skipped. Nothing is held but
 * the position, so a file costs its own size and one token at a time.
 */
class TextGridTokens {
  private readonly re = /"((?:[^"]|"")*)"|([^\s=[\]:"]+)/g;
  private done = false;

  constructor(
    private readonly src: string,
    from: number,
  ) {
    this.re.lastIndex = from;
  }

  /** Characters not read yet. */
  get remaining(): number {
    return this.done ? 0 : this.src.length - this.re.lastIndex;
  }

  next(): { s: string; quoted: boolean } | null {
    if (this.done) return null;
    const m = this.re.exec(this.src);
    if (!m) {
      this.done = true;
      return null;
    }
    return m[1] !== undefined ? { s: m[1].replace(/""/g, '"'), quoted: true } : { s: m[2]!, quoted: false };
  }

  /** The next bare token that reads as a number (Infinity included: the caller judges it); null at the end. */
  number(): number | null {
    for (let t = this.next(); t; t = this.next()) {
      if (t.quoted) continue;
      const x = Number(t.s);
      if (!Number.isNaN(x)) return x;
    }
    return null;
  }

  /** The next quoted string; null at the end. */
  quoted(): string | null {
    for (let t = this.next(); t; t = this.next()) if (t.quoted) return t.s;
    return null;
  }
}

/**
 * The transcript held by a TextGrid's single tier: the labels of its intervals (or points) in order,
 * joined by spaces. Reads Praat's long and short text formats. Refuses a file that is not a TextGrid,
 * one of more than one tier (which tier is the transcript would be a guess), and one whose declared
 * counts the bytes that follow cannot hold (`intervals: size = 1e999` or `2e8` in a small file): the
 * work is one pass over the text, whatever the file claims.
 */
export function textGridTranscript(content: string): { text: string } | { error: TextGridProblem } {
  const src = content.replace(/^\uFEFF/, '');
  const header = /^File type = "ooTextFile"\s*\r?\nObject class = "TextGrid"/.exec(src);
  if (!header) return { error: 'not_textgrid' };
  const tokens = new TextGridTokens(src, header[0].length);
  // After the header: xmin xmax, <exists>, size, then each tier.
  tokens.number(); // xmin
  tokens.number(); // xmax
  const tierCount = tokens.number();
  if (tierCount === null) return { error: 'malformed' };
  if (tierCount !== 1) return { error: 'tiers' };
  // The tier's class and name are the next two quoted strings, then its xmin, xmax and size.
  const kind = tokens.quoted();
  if (kind !== 'IntervalTier' && kind !== 'TextTier') return { error: 'malformed' };
  if (tokens.quoted() === null) return { error: 'malformed' }; // name
  tokens.number(); // xmin
  tokens.number(); // xmax
  const n = tokens.number();
  if (n === null || !Number.isSafeInteger(n) || n < 0 || n > tokens.remaining / MIN_ITEM_CHARS)
    return { error: 'malformed' };
  const labels: string[] = [];
  // Each item's numbers come before its label; only the label is kept.
  for (let k = 0; k < n; k++) {
    const label = tokens.quoted();
    if (label === null) return { error: 'malformed' };
    const trimmed = label.trim();
    if (trimmed) labels.push(trimmed);
  }
  return { text: labels.join(' ') };
}
