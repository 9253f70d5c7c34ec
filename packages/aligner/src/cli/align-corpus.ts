// `tazamun align --corpus DIR --out-dir OUT --lang CODE`: a folder in the Montreal Forced Aligner's
// layout (each recording next to its transcript of the same base name, at any depth), aligned one file
// after the other in this process (the models load once), each result written under OUT with the same
// relative path (spk0/utt0.wav -> OUT/spk0/utt0.TextGrid), then a summary table and OUT/summary.csv.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { pairCorpus, isTextGridPath } from '../corpus/corpus-layout.ts';
import { textGridTranscript } from '../formats/textgrid-reader.ts';
import type { CorpusPair } from '../corpus/corpus-layout.ts';
import { align } from '../engine.ts';
import { csvRows } from '../formats/csv.ts';
import { EXPORT_FORMATS, MEDIA_FORMATS, exportResult, isExportFormat } from '../formats/export.ts';
import { portableMedia } from '../formats/export-media.ts';
import { alignOptions } from './args.ts';
import type { ParsedArgs } from './args.ts';

export interface CorpusRow {
  file: string;
  duration: number | null;
  words: number | null;
  coverage: number | null;
  confidence: number | null;
  wer: number | null;
  error: string | null;
}

export const SKIP_REASONS = {
  no_transcript: 'no transcript with the same base name (.lab, .txt or .TextGrid)',
  no_recording: 'no recording with the same base name',
  duplicate_recording: 'another recording has the same base name',
  duplicate_transcript: 'another transcript of the same base name is used',
  not_corpus_file: 'not a recording or a transcript',
} as const;

export function walk(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return walk(root, p);
    return e.isFile() ? [relative(root, p).split(sep).join('/')] : [];
  });
}

export function transcriptOf(root: string, pair: CorpusPair): string {
  const raw = readFileSync(join(root, pair.transcript), 'utf8').replace(/^\uFEFF/, '');
  if (!isTextGridPath(pair.transcript)) return raw;
  const tg = textGridTranscript(raw);
  if ('error' in tg)
    throw new Error(
      tg.error === 'malformed'
        ? 'the TextGrid cannot be read: it is damaged, or it declares more intervals than it holds'
        : 'the TextGrid must hold the transcript in a single tier',
    );
  return tg.text;
}

/** `[#####.....]  3/10 spk0/utt0` on one line of a terminal, a plain line per file elsewhere. */
function progress(done: number, total: number, label: string): void {
  const width = 24;
  const filled = Math.round((done / Math.max(1, total)) * width);
  const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(done).padStart(String(total).length)}/${total} ${label}`;
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${bar}${done === total ? '\n' : ''}`);
  else process.stderr.write(`${bar}\n`);
}

const fmt = (x: number | null, digits: number): string => (x === null ? '' : x.toFixed(digits));

export function summaryTable(rows: CorpusRow[]): string {
  const head = ['file', 'duration', 'words', 'coverage', 'confidence', 'wer', 'error'];
  const cells = rows.map((r) => [
    r.file,
    fmt(r.duration, 2),
    r.words === null ? '' : String(r.words),
    fmt(r.coverage, 3),
    fmt(r.confidence, 3),
    fmt(r.wer, 3),
    r.error ?? '',
  ]);
  const widths = head.map((h, k) => Math.max(h.length, ...cells.map((c) => c[k]!.length)));
  const line = (c: string[]) =>
    c
      .map((v, k) => (k >= 1 && k <= 5 ? v.padStart(widths[k]!) : v.padEnd(widths[k]!)))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n') + '\n';
}

/** OUT/summary.csv, through the exports' one CSV writer (file names and errors formula-guarded). */
export function summaryCsv(rows: CorpusRow[]): string {
  return csvRows(
    [
      ['file', 'duration', 'words', 'coverage', 'confidence', 'wer', 'error'],
      ...rows.map((r) => [
        r.file,
        fmt(r.duration, 3),
        r.words,
        fmt(r.coverage, 4),
        fmt(r.confidence, 4),
        fmt(r.wer, 4),
        r.error ?? '',
      ]),
    ],
    ',',
    '\n',
  );
}

export async function runCorpus(p: ParsedArgs): Promise<number> {
  const root = p.values.corpus!;
  const outDir = p.values['out-dir'];
  const lang = p.values.lang;
  if (!outDir || !lang) {
    process.stderr.write('usage: tazamun align --corpus DIR --out-dir OUT --lang CODE [--format F]\n');
    return 2;
  }
  const format = p.values.format ?? 'textgrid';
  if (!isExportFormat(format)) throw new Error(`unknown format "${format}" (${EXPORT_FORMATS.join(', ')})`);
  const layout = pairCorpus(walk(root));
  for (const s of layout.skipped) process.stderr.write(`skipped ${s.name}: ${SKIP_REASONS[s.reason]}\n`);
  if (layout.pairs.length === 0) {
    process.stderr.write(`no recording with a transcript of the same base name in ${root}\n`);
    return 1;
  }
  const options = alignOptions(p, lang);
  const rows: CorpusRow[] = [];
  for (const [k, pair] of layout.pairs.entries()) {
    progress(k, layout.pairs.length, pair.base);
    try {
      const result = await align(join(root, pair.audio), transcriptOf(root, pair), options);
      const audioPath = join(root, pair.audio);
      const file = exportResult(result, format, {
        title: pair.base.split('/').at(-1),
        media: MEDIA_FORMATS.includes(format) ? await portableMedia(audioPath) : undefined,
      });
      const target = join(outDir, `${pair.base}.${file.extension}`);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, file.content);
      rows.push({
        file: pair.audio,
        duration: result.audio.duration,
        words: result.metrics.words_total,
        coverage: result.metrics.coverage,
        confidence: result.metrics.mean_confidence,
        wer: result.metrics.wer,
        error: null,
      });
    } catch (err) {
      rows.push({
        file: pair.audio,
        duration: null,
        words: null,
        coverage: null,
        confidence: null,
        wer: null,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }
  progress(layout.pairs.length, layout.pairs.length, 'done');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'summary.csv'), summaryCsv(rows));
  process.stdout.write(summaryTable(rows));
  const failed = rows.filter((r) => r.error).length;
  process.stderr.write(`${rows.length - failed}/${rows.length} recordings aligned\n`);
  return failed ? 1 : 0;
}
