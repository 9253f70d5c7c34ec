// `tazamun align`: one file, or a JSONL manifest processed by worker threads (models stay loaded in
// each worker across items).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { align } from '../engine.ts';
import { EXPORT_FORMATS, MEDIA_FORMATS, exportResult, isExportFormat } from '../formats/export.ts';
import type { ExportFormat, ExportOptions } from '../formats/export.ts';
import { portableMedia } from '../formats/export-media.ts';
import { parseAlignmentJson } from '../formats/json.ts';
import { alignOptions, parseArgs } from './args.ts';
import type { ParsedArgs } from './args.ts';
import { BatchThread, alignWithRetry } from './batch.ts';

export interface ManifestItem {
  id: string;
  audio: string;
  text?: string;
  text_file?: string;
  lang: string;
}

export async function run(args: string[]): Promise<number> {
  const p = parseArgs(args);
  if (p.values.has('manifest')) return runBatch(p);
  if (p.values.has('corpus')) return (await import('./align-corpus.ts')).runCorpus(p);
  const [audio, textFile] = p.positional;
  const lang = p.values.get('lang');
  if (!audio || !textFile || !lang) {
    process.stderr.write('usage: tazamun align AUDIO TEXT_FILE --lang CODE [--format F] [-o OUT]\n');
    return 2;
  }
  const format = exportFormat(p);
  const target = p.values.get('o');
  if (format === 'epub' && !target) throw new Error('an EPUB is a binary file: name it with -o FILE.epub');
  const text = readFileSync(textFile, 'utf8');
  // one file: a long one may use every core (--threads N to say how many)
  const result = await align(audio, text, { threads: cpus().length, ...alignOptions(p, lang) });
  await writeExport(result, format, audio, p);
  const m = result.metrics;
  process.stderr.write(
    `aligned ${m.words_aligned}/${m.words_total} words, mean confidence ${m.mean_confidence.toFixed(3)}, RTF ${m.real_time_factor.toFixed(3)}\n`,
  );
  return 0;
}

function exportFormat(p: ParsedArgs): ExportFormat {
  const format = p.values.get('format') ?? 'json';
  if (!isExportFormat(format)) throw new Error(`unknown format "${format}" (${EXPORT_FORMATS.join(', ')})`);
  return format;
}

/**
 * Writes one export of `result` to -o (or stdout): the read-along page and the EPUB embed the
 * recording, the EAF names it (by absolute URL, and relative to the output file).
 */
async function writeExport(result: AlignmentResult, format: ExportFormat, audio: string, p: ParsedArgs) {
  const target = p.values.get('o');
  const title = p.values.get('title') ?? basename(audio).replace(/\.[^.]+$/, '');
  const options: ExportOptions = { title };
  if (MEDIA_FORMATS.includes(format)) options.media = await portableMedia(audio);
  if (format === 'eaf') {
    const rel = (target ? relative(dirname(resolve(target)), resolve(audio)) : basename(audio))
      .split(sep)
      .map(encodeURIComponent)
      .join('/');
    options.eaf = {
      mediaUrl: pathToFileURL(resolve(audio)).href,
      relativeMediaUrl: rel.startsWith('..') ? rel : `./${rel}`,
      mimeType: /\.wav$/i.test(audio) ? 'audio/x-wav' : /\.mp3$/i.test(audio) ? 'audio/mpeg' : 'audio/*',
    };
  }
  const out = exportResult(result, format, options).content;
  if (target) writeFileSync(target, out);
  else if (typeof out === 'string') process.stdout.write(out.endsWith('\n') ? out : out + '\n');
  else process.stdout.write(out);
}

/**
 * `tazamun export RESULT.json AUDIO --format F -o OUT`: an export of a result already made (a revision
 * downloaded from the platform as JSON, or the CLI's own JSON), without aligning again.
 */
export async function runExport(args: string[]): Promise<number> {
  const p = parseArgs(args);
  const [json, audio] = p.positional;
  if (!json || !audio) {
    process.stderr.write('usage: tazamun export RESULT.json AUDIO --format F [-o OUT] [--title T]\n');
    return 2;
  }
  const format = exportFormat(p);
  if (format === 'epub' && !p.values.get('o'))
    throw new Error('an EPUB is a binary file: name it with -o FILE.epub');
  const result = parseAlignmentJson(readFileSync(json, 'utf8'));
  await writeExport(result, format, audio, p);
  return 0;
}

export function readManifest(path: string): ManifestItem[] {
  const base = dirname(resolve(path));
  const abs = (f: string) => (isAbsolute(f) ? f : join(base, f));
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line, i) => {
      const item = JSON.parse(line) as ManifestItem;
      if (!item.id || !item.audio || !item.lang || (item.text === undefined && !item.text_file)) {
        throw new Error(`manifest line ${i + 1}: needs id, audio, lang and text or text_file`);
      }
      if (!/^[\w.-]+$/.test(item.id))
        throw new Error(`manifest line ${i + 1}: id may hold letters, digits, . _ - only`);
      return { ...item, audio: abs(item.audio), text_file: item.text_file ? abs(item.text_file) : undefined };
    });
}

async function runBatch(p: ParsedArgs): Promise<number> {
  const items = readManifest(p.values.get('manifest')!);
  const outDir = p.values.get('out-dir');
  if (!outDir) throw new Error('--manifest needs --out-dir DIR');
  mkdirSync(outDir, { recursive: true });
  const jobs = Math.max(1, Math.min(Number(p.values.get('jobs') ?? cpus().length), items.length));
  let next = 0;
  let failed = 0;
  const workerArgs = [...p.flags]
    .map((f) => `--${f}`)
    .concat(
      [...p.values].filter(([k]) => ['precision', 'engine'].includes(k)).flatMap(([k, v]) => [`--${k}`, v]),
    );
  const fresh = (): BatchThread => new BatchThread(workerArgs);
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      let thread = fresh();
      try {
        while (next < items.length) {
          const item = items[next++]!;
          const r = await alignWithRetry(thread, item, fresh);
          thread = r.thread;
          const { reply } = r;
          if (reply.ok) {
            writeFileSync(join(outDir, `${item.id}.json`), reply.json);
            process.stderr.write(
              `${item.id}: ok${r.retried ? ' (after an engine fault, on a fresh thread)' : ''}\n`,
            );
          } else {
            failed++;
            const line = `${reply.code}: ${reply.error}`;
            writeFileSync(join(outDir, `${item.id}.error.txt`), `${line}\n`);
            process.stderr.write(`${item.id}: ${line}\n`);
          }
        }
      } finally {
        await thread.terminate();
      }
    }),
  );
  process.stderr.write(`${items.length - failed}/${items.length} items aligned\n`);
  return failed ? 1 : 0;
}
