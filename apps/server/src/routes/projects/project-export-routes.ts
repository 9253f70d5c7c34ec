// GET /api/projects/{id}/export/{format}/: the project's completed alignments as one zip, each file named
// after its source (spk0/utt0.wav -> spk0/utt0.TextGrid), with the single export's options and a CSV
// summary. yazl pulls one entry at a time (addReadStreamLazy), so only one alignment's export is ever
// in memory, whatever the size of the project.
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import yazl from 'yazl';
import { ExportQuery, FileExportFormat } from '@tazamun/contracts/exports';
import type { ExportFormat } from '@tazamun/aligner/formats';
import { stripBidiControls } from '@tazamun/aligner/formats';
import { csvRows } from '@tazamun/aligner/formats';
import { createError } from '../../errors.ts';
import { readResult } from '../../jobs/alignment-files.ts';
import { contentDisposition, safeBaseName } from '../../media/send-file.ts';
import { auth, requireApproved } from '../../plugins/auth-guard.ts';
import { IdParams } from '../alignments/alignment-routes.ts';
import { buildExport, exportSource } from '../exports/export-file.ts';
import { requestLanguage } from '../../plugins/language.ts';
import { completedProjectAlignments, findOwnedProject } from '../../db/projects.ts';
import type { AlignmentRow } from '../../db/schema.ts';

const EXTENSIONS: Record<ExportFormat, (q: ExportQuery) => string> = {
  json: () => 'json',
  textgrid: () => 'TextGrid',
  vtt: () => 'vtt',
  srt: () => 'srt',
  csv: (q) => (q.separator === 'tab' ? 'tsv' : 'csv'),
  eaf: () => 'eaf',
  readalong: () => 'html',
  epub: () => 'epub',
};

/** The source's path without its extension, each folder kept, nothing that could climb or hide. */
export function exportBase(row: Pick<AlignmentRow, 'file_name' | 'title' | 'id'>): string {
  const source = row.file_name || row.title || row.id;
  const segments = source
    .replace(/\\/g, '/')
    .split('/')
    .filter((s) => s && s !== '.' && s !== '..');
  const last = (segments.pop() ?? '').replace(/\.[A-Za-z0-9]{2,4}$/, '');
  // bidi overrides and marks (U+202E shows "txt.exe" as "exe.txt") go, as in download names
  const clean = (s: string) =>
    stripBidiControls(s)
      // eslint-disable-next-line no-control-regex
      .replace(/[:*?"<>|\u0000-\u001F\u007F]/g, '_')
      .trim()
      .slice(0, 80) || '_';
  return [...segments, last].map(clean).join('/');
}

/** Names unique within the zip: a second utt0.TextGrid becomes utt0 (2).TextGrid. */
function uniqueNames(rows: AlignmentRow[], ext: string): string[] {
  const taken = new Set<string>(['summary.csv']);
  return rows.map((r) => {
    const base = exportBase(r);
    let name = `${base}.${ext}`;
    for (let k = 2; taken.has(name.toLowerCase()); k++) name = `${base} (${k}).${ext}`;
    taken.add(name.toLowerCase());
    return name;
  });
}

const num = (x: number | null, digits: number): number | null =>
  x === null ? null : Math.round(x * 10 ** digits) / 10 ** digits;

/** summary.csv, through the exports' one CSV writer: names from users are formula-guarded and quoted. */
export function summaryCsv(rows: AlignmentRow[], names: string[]): string {
  return csvRows([
    ['file', 'duration', 'words', 'coverage', 'confidence', 'wer'],
    ...rows.map((r, k) => [
      names[k]!,
      num(r.duration, 3),
      r.words,
      num(r.coverage, 4),
      num(r.confidence, 4),
      num(r.wer, 4),
    ]),
  ]);
}

export const projectExportRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const db = deps.db;

  app.get(
    '/:id/export/:format/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['projects'],
        summary: 'Download every completed alignment of the project as one zip, with summary.csv',
        description:
          'One file per completed alignment, named after its source file (spk0/utt0.wav -> ' +
          'spk0/utt0.TextGrid), made with the options of GET /api/alignments/{id}/export/{format}/; ' +
          'summary.csv lists file, duration, words, coverage, confidence and WER.',
        params: IdParams.extend({ format: FileExportFormat }),
        querystring: ExportQuery,
      },
    },
    async (request, reply) => {
      const userId = auth(request).user.id;
      const project = await findOwnedProject(db, userId, request.params.id);
      if (!project) throw createError('not_found');
      const rows = await completedProjectAlignments(db, userId, project.id);
      const { format } = request.params;
      const names = uniqueNames(rows, EXTENSIONS[format](request.query));
      const zip = new yazl.ZipFile();
      rows.forEach((row, k) => {
        zip.addReadStreamLazy(names[k]!, (cb) => {
          void (async () => {
            const result = await readResult(deps.files, row.user_id, row.result_file);
            if (!result) throw new Error(`alignment ${row.id} has no stored result`);
            const file = await buildExport(
              result,
              format,
              request.query,
              exportSource(deps.files, row),
              requestLanguage(request),
            );
            return Readable.from([Buffer.from(file.content)]);
          })().then(
            (stream) => cb(null, stream),
            (err: unknown) => cb(err as Error, undefined as never),
          );
        });
      });
      zip.addBuffer(Buffer.from(summaryCsv(rows, names)), 'summary.csv');
      zip.end();
      zip.on('error', (err: Error) =>
        request.log.error({ err, project: project.id }, 'project export failed'),
      );
      return reply
        .type('application/zip')
        .header('content-disposition', contentDisposition(`${safeBaseName(project.name)}-${format}.zip`))
        .send(zip.outputStream);
    },
  );
};
