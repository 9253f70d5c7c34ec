// Export options from the query string mapped onto the aligner's writers.
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import type { ExportQuery } from '@tazamun/contracts/exports';
import { exportResult } from '@tazamun/aligner/formats/export';
import type { ExportFormat, ExportedFile } from '@tazamun/aligner/formats/export';

const SEPARATORS = { comma: ',', semicolon: ';', tab: '\t' } as const;

export async function buildExport(
  result: AlignmentResult,
  format: ExportFormat,
  q: ExportQuery,
  /** `read` runs only when the JSON embeds the audio */
  audio: { read: () => Promise<Buffer>; mimeType: string },
): Promise<ExportedFile> {
  return exportResult(result, format, {
    json: {
      pretty: q.pretty,
      includeMetrics: q.include_metrics,
      audio: q.include_audio ? { bytes: new Uint8Array(await audio.read()), mimeType: audio.mimeType } : null,
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
      mimeType: audio.mimeType,
    },
  });
}
