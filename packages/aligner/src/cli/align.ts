// `tazamun align`: one file, or a JSONL manifest processed by the engine host's threads (models stay
// loaded in each thread across items; the server's jobs run on the same host).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import type { ExportFormat, ExportOptions } from '../formats/export.ts';
import { parseAlignmentJson, toPlatformJson } from '../formats/json.ts';
import { describeThrown } from '../errors.ts';
import { EngineHost } from '../host/engine-host.ts';
import type { EngineOutcome } from '../host/protocol.ts';
import { alignOptions, parseArgs, recognitionOf, requestOptions } from './args.ts';
import type { ParsedArgs } from './args.ts';

export interface ManifestItem {
  id: string;
  audio: string;
  text?: string;
  text_file?: string;
  lang: string;
}

export async function run(args: string[]): Promise<number> {
  const p = parseArgs(args);
  if (p.values.manifest !== undefined) return runBatch(p);
  if (p.values.corpus !== undefined) return (await import('./align-corpus.ts')).runCorpus(p);
  const [audio, textFile] = p.positional;
  const lang = p.values.lang;
  if (!audio || !textFile || !lang) {
    process.stderr.write('usage: tazamun align AUDIO TEXT_FILE --lang CODE [--format F] [-o OUT]\n');
    return 2;
  }
  const format = await exportFormat(p);
  const target = p.values.o;
  if (format === 'epub' && !target) throw new Error('an EPUB is a binary file: name it with -o FILE.epub');
  const text = readFileSync(textFile, 'utf8');
  // one file: a long one may use every core (--threads N to say how many). The engine runs on this
  // thread only here, so only here is it loaded (a batch's engine lives on the host's thread).
  const { align } = await import('../engine.ts');
  const result = await align(audio, text, { threads: cpus().length, ...alignOptions(p, lang) });
  await writeExport(result, format, audio, p);
  const m = result.metrics;
  process.stderr.write(
    `aligned ${m.words_aligned}/${m.words_total} words, mean confidence ${m.mean_confidence.toFixed(3)}, RTF ${m.real_time_factor.toFixed(3)}\n`,
  );
  return 0;
}

/**
 * The export module, loaded by the commands that write one: a batch writes the result JSON only, and
 * its process then does not evaluate every format's dependencies (the language tables among them).
 */
const exporting = () => import('../formats/export.ts');

async function exportFormat(p: ParsedArgs): Promise<ExportFormat> {
  const { EXPORT_FORMATS, isExportFormat } = await exporting();
  const format = p.values.format ?? 'json';
  if (!isExportFormat(format)) throw new Error(`unknown format "${format}" (${EXPORT_FORMATS.join(', ')})`);
  return format;
}

/**
 * Writes one export of `result` to -o (or stdout): the read-along page and the EPUB embed the
 * recording, the EAF names it (by absolute URL, and relative to the output file).
 */
async function writeExport(result: AlignmentResult, format: ExportFormat, audio: string, p: ParsedArgs) {
  const target = p.values.o;
  const title = p.values.title ?? basename(audio).replace(/\.[^.]+$/, '');
  const { MEDIA_FORMATS, exportResult } = await exporting();
  const options: ExportOptions = { title };
  if (MEDIA_FORMATS.includes(format))
    options.media = await (await import('../formats/export-media.ts')).portableMedia(audio);
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
  const format = await exportFormat(p);
  if (format === 'epub' && !p.values.o)
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

/** A batch item's reply: its result JSON, or the line its .error.txt holds. */
type ItemReply = { ok: true; json: string } | { ok: false; code: string; error: string };

function replyOf(o: EngineOutcome): ItemReply {
  switch (o.type) {
    case 'result':
      try {
        // the platform JSON, checked against the schema on its way out as a single file's is
        return { ok: true, json: toPlatformJson(JSON.parse(o.json) as AlignmentResult) };
      } catch (err) {
        return { ok: false, code: 'engine_fault', error: describeThrown(err) };
      }
    case 'audio_error':
    case 'input_error':
      return { ok: false, code: o.code, error: o.message };
    case 'engine_fault':
    case 'crash':
      return { ok: false, code: 'engine_fault', error: o.message };
    case 'aborted':
      return { ok: false, code: 'engine_fault', error: 'aborted' };
  }
}

async function alignItem(host: EngineHost, item: ManifestItem, p: ParsedArgs) {
  let text: string;
  try {
    text = item.text ?? readFileSync(item.text_file!, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return {
      reply: { ok: false, code: 'not_found', error: (err as Error).message } as const,
      retried: false,
    };
  }
  const { outcome, retried } = await host.runRetrying({
    kind: 'align',
    audio: item.audio,
    text,
    language: item.lang,
    options: requestOptions(p),
    recognition: recognitionOf(p),
  });
  return { reply: replyOf(outcome), retried };
}

async function runBatch(p: ParsedArgs): Promise<number> {
  const items = readManifest(p.values.manifest!);
  const outDir = p.values['out-dir'];
  if (!outDir) throw new Error('--manifest needs --out-dir DIR');
  mkdirSync(outDir, { recursive: true });
  // the options are checked once, before any thread starts
  requestOptions(p);
  const jobs = Math.max(1, Math.min(Number(p.values.jobs ?? cpus().length), items.length));
  let next = 0;
  let failed = 0;
  const host = new EngineHost();
  try {
    await Promise.all(
      Array.from({ length: jobs }, async () => {
        while (next < items.length) {
          const item = items[next++]!;
          const { reply, retried } = await alignItem(host, item, p);
          if (reply.ok) {
            writeFileSync(join(outDir, `${item.id}.json`), reply.json);
            process.stderr.write(
              `${item.id}: ok${retried ? ' (after an engine fault, on a fresh thread)' : ''}\n`,
            );
          } else {
            failed++;
            const line = `${reply.code}: ${reply.error}`;
            writeFileSync(join(outDir, `${item.id}.error.txt`), `${line}\n`);
            process.stderr.write(`${item.id}: ${line}\n`);
          }
        }
      }),
    );
  } finally {
    await host.close();
  }
  process.stderr.write(`${items.length - failed}/${items.length} items aligned\n`);
  return failed ? 1 : 0;
}
