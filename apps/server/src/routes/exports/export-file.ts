// Export options from the query string mapped onto the aligner's writers, and the recording the formats
// that carry or name it get (JSON with audio, the read-along page, the EPUB, the ELAN header).
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import type { ExportQuery } from '@tazamun/contracts/exports';
import type { UiLanguage } from '@tazamun/contracts/limits';
import { MEDIA_FORMATS, exportResult } from '@tazamun/aligner/formats';
import type { ExportFormat, ExportedFile } from '@tazamun/aligner/formats';
import { portableMedia } from '@tazamun/aligner/formats';
import { AUDIO_MIME } from '../../media/audio-sniff.ts';
import type { SniffedFormat } from '../../media/audio-sniff.ts';
import { readStoredBytes, withLocalFile } from '../../storage/local-copy.ts';
import type { UserFiles } from '../../storage/user-files.ts';
import type { AlignmentRow } from '../../db/schema.ts';

const SEPARATORS = { comma: ',', semicolon: ';', tab: '\t' } as const;

/** ELAN's names for the recording types (it picks its player by them). */
const ELAN_MIME: Record<SniffedFormat, string> = {
  wav: 'audio/x-wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
};

/** The alignment's recording as the exports need it; nothing is read unless a format asks. */
export interface ExportSource {
  read: () => Promise<Buffer>;
  /** the recording as an MP3 or AAC file to embed (converted once when it is neither) */
  media: () => Promise<Awaited<ReturnType<typeof portableMedia>>>;
  mimeType: string;
  /** the upload's own file name, without folders: the EAF names it */
  fileName: string;
  format: SniffedFormat | null;
  title: string;
  /** a URN for the EPUB: the same book across revisions */
  identifier: string;
}

export function exportSource(files: UserFiles, row: AlignmentRow): ExportSource {
  const key = files.key(row.user_id, row.audio_file!);
  const format = (row.audio_format as SniffedFormat | null) ?? null;
  return {
    read: () => readStoredBytes(files.store, key),
    media: () => withLocalFile(files.store, key, files.tmpDir, (path) => portableMedia(path)),
    mimeType: (format && AUDIO_MIME[format]) ?? 'application/octet-stream',
    fileName: (row.file_name ?? '').split(/[\\/]/).pop() || `audio.${format ?? 'wav'}`,
    format,
    title: row.title ?? row.file_name ?? 'Tazamun',
    identifier: `urn:uuid:${row.id}`,
  };
}

export async function buildExport(
  result: AlignmentResult,
  format: ExportFormat,
  q: ExportQuery,
  source: ExportSource,
  uiLanguage: UiLanguage,
): Promise<ExportedFile> {
  return exportResult(result, format, {
    json: {
      pretty: q.pretty,
      includeMetrics: q.include_metrics,
      audio: q.include_audio
        ? { bytes: new Uint8Array(await source.read()), mimeType: source.mimeType }
        : null,
    },
    textgrid: {
      wordTierName: q.tier_name,
      phoneTierName: q.phone_tier_name,
      phones: q.phone_tier,
      phoneLabel: q.phone_label,
    },
    subtitles: {
      minSegmentDuration: q.min_segment_duration,
      wordsPerLine: q.words_per_line,
      linesPerCue: q.lines_per_cue,
      timestamps: q.timestamps,
    },
    csv: { separator: SEPARATORS[q.separator], headers: q.headers, level: q.level },
    eaf: {
      wordTierName: q.tier_name,
      phoneTierName: q.phone_tier_name,
      phones: q.phone_tier,
      phoneLabel: q.phone_label,
      // the recording as the user has it, beside the .eaf: ELAN finds it there
      mediaUrl: encodeURIComponent(source.fileName),
      relativeMediaUrl: `./${encodeURIComponent(source.fileName)}`,
      mimeType: (source.format && ELAN_MIME[source.format]) ?? 'audio/*',
    },
    media: MEDIA_FORMATS.includes(format) ? await source.media() : undefined,
    title: source.title,
    uiLanguage,
    epub: { identifier: source.identifier, modified: new Date(result.revision?.created_at ?? Date.now()) },
  });
}
