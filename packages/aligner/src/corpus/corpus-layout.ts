// The Montreal Forced Aligner's corpus layout: a recording and its transcript share a base name in the
// same folder, at any depth (spk0/utt0.wav + spk0/utt0.lab). The transcript is a .lab or .txt file, or a
// TextGrid whose single tier holds it (formats/textgrid-reader.ts). Used on the paths of a zip (server
// batch) and of a folder (CLI).

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
