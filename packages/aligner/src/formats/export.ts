// One entry for every export format, for the CLI and the server.
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import type { CsvOptions } from './csv.ts';
import { toEpub } from './epub.ts';
import type { EpubOptions } from './epub.ts';
import type { ExportMedia } from './export-media.ts';
import { toCsv } from './csv.ts';
import type { EafOptions } from './eaf.ts';
import { toEaf } from './eaf.ts';
import type { JsonExportOptions } from './json.ts';
import { toPlatformJson } from './json.ts';
import type { SubtitleOptions } from './subtitles.ts';
import { toSrt, toWebVtt } from './subtitles.ts';
import type { TextGridOptions } from './textgrid.ts';
import { toTextGrid } from './textgrid.ts';
import { toReadAlongHtml } from './read-along.ts';
import type { ReadAlongLanguage } from './read-along.ts';

export const EXPORT_FORMATS = ['json', 'textgrid', 'vtt', 'srt', 'csv', 'eaf', 'readalong', 'epub'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The formats that carry the recording itself: the caller gives it as `media` (see portableMedia). */
export const MEDIA_FORMATS: readonly ExportFormat[] = ['readalong', 'epub'];

export interface ExportOptions {
  json?: Partial<JsonExportOptions>;
  textgrid?: Partial<TextGridOptions>;
  subtitles?: Partial<SubtitleOptions>;
  csv?: Partial<CsvOptions>;
  eaf?: Partial<EafOptions>;
  /** read-along page and EPUB: the recording, and the title they show */
  media?: ExportMedia;
  title?: string;
  /** read-along page: the language of its few words of interface (default en) */
  uiLanguage?: ReadAlongLanguage;
  epub?: Partial<Pick<EpubOptions, 'identifier' | 'modified' | 'creator'>>;
}

export interface ExportedFile {
  /** text, or the bytes of a binary format (EPUB) */
  content: string | Uint8Array;
  extension: string;
  mimeType: string;
}

export function isExportFormat(s: string): s is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(s);
}

export function exportResult(
  result: AlignmentResult,
  format: ExportFormat,
  opts: ExportOptions = {},
): ExportedFile {
  switch (format) {
    case 'json':
      return {
        content: toPlatformJson(result, opts.json),
        extension: 'json',
        mimeType: 'application/json; charset=utf-8',
      };
    case 'textgrid':
      return {
        content: toTextGrid(result, opts.textgrid),
        extension: 'TextGrid',
        mimeType: 'text/plain; charset=utf-8',
      };
    case 'vtt':
      return {
        content: toWebVtt(result, opts.subtitles),
        extension: 'vtt',
        mimeType: 'text/vtt; charset=utf-8',
      };
    case 'srt':
      return {
        content: toSrt(result, opts.subtitles),
        extension: 'srt',
        mimeType: 'application/x-subrip; charset=utf-8',
      };
    case 'csv': {
      const tab = opts.csv?.separator === '\t';
      return {
        content: toCsv(result, opts.csv),
        extension: tab ? 'tsv' : 'csv',
        mimeType: tab ? 'text/tab-separated-values; charset=utf-8' : 'text/csv; charset=utf-8',
      };
    }
    case 'eaf':
      return {
        content: toEaf(result, opts.eaf),
        extension: 'eaf',
        mimeType: 'application/xml; charset=utf-8',
      };
    case 'readalong':
      return {
        content: toReadAlongHtml(result, {
          media: needMedia(opts, format),
          title: opts.title ?? 'Tazamun',
          uiLanguage: opts.uiLanguage ?? 'en',
        }),
        extension: 'html',
        mimeType: 'text/html; charset=utf-8',
      };
    case 'epub':
      return {
        content: toEpub(result, {
          ...opts.epub,
          media: needMedia(opts, format),
          title: opts.title ?? 'Tazamun',
        }),
        extension: 'epub',
        mimeType: 'application/epub+zip',
      };
  }
}

function needMedia(opts: ExportOptions, format: ExportFormat): ExportMedia {
  if (!opts.media) throw new Error(`the ${format} export embeds the recording: give it as options.media`);
  return opts.media;
}
