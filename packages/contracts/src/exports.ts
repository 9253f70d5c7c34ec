// Export options as query parameters (spec section 3) and the video render request.
import { z } from 'zod';

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');

export const FILE_EXPORT_FORMATS = [
  'json',
  'textgrid',
  'vtt',
  'srt',
  'csv',
  'eaf',
  'readalong',
  'epub',
] as const;
export const FileExportFormat = z.enum(FILE_EXPORT_FORMATS);

/** Every option of every format; each format reads its own. */
export const ExportQuery = z.object({
  // JSON
  include_metrics: bool(true),
  include_audio: bool(false).describe('embed the audio as base64 (JSON)'),
  pretty: bool(true),
  // TextGrid / EAF
  tier_name: z.string().min(1).max(60).default('words'),
  phone_tier: bool(true),
  phone_tier_name: z.string().min(1).max(60).default('phones'),
  // 'phone' is the earlier name of 'model' (the acoustic model's labels), still accepted
  phone_label: z
    .enum(['ipa', 'model', 'phone'])
    .default('ipa')
    .transform((v) => (v === 'phone' ? 'model' : v)),
  // WebVTT / SRT
  min_segment_duration: z.coerce.number().min(0).max(30).default(1),
  words_per_line: z.coerce.number().int().min(1).max(50).default(7),
  lines_per_cue: z.coerce.number().int().min(1).max(4).default(2),
  timestamps: bool(false).describe('WebVTT: inline word timestamps; SRT: one cue per word'),
  // CSV
  separator: z.enum(['comma', 'semicolon', 'tab']).default('comma'),
  headers: bool(true),
  level: z.enum(['words', 'phones']).default('words'),
});
export type ExportQuery = z.infer<typeof ExportQuery>;

export const VIDEO_RESOLUTIONS = { sd: [854, 480], hd: [1280, 720], fullhd: [1920, 1080] } as const;
export type VideoResolution = keyof typeof VIDEO_RESOLUTIONS;

export const VideoRequest = z
  .object({
    resolution: z.enum(['sd', 'hd', 'fullhd']).default('fullhd'),
    position: z.enum(['bottom', 'top', 'center']).default('bottom'),
    font_size: z.number().int().min(12).max(160).optional().describe('pixels; default scales with height'),
    show_processed_text: z.boolean().default(false),
    show_waveform: z.boolean().default(true),
    fps: z
      .union([z.literal(30), z.literal(60)])
      .optional()
      .describe(
        'frames per second; default from the preference "frames per second" (standard 30, smooth 60)',
      ),
    watermark: z
      .boolean()
      .optional()
      .describe('"Tazamun" in a corner; default from the preference "watermark"'),
  })
  .strict();
export type VideoRequest = z.infer<typeof VideoRequest>;

export const VideoStatus = z.object({
  id: z.string(),
  status: z.enum(['queued', 'processing', 'completed', 'failed', 'cancelled']),
  progress: z.number().int(),
  options: VideoRequest,
  width: z.number().int(),
  height: z.number().int(),
  fps: z.number().int(),
  file_size: z.number().int().nullable(),
  render_time: z.number().nullable().describe('seconds'),
  error: z.object({ code: z.string(), detail: z.string() }).nullable(),
  download_url: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
