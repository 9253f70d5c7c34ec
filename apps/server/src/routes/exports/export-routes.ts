// /api/alignments/{id}/export/{format}/ and the karaoke video (a render job, downloadable again).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorMessage } from '@tazamun/contracts/errors';
import type { ErrorCode } from '@tazamun/contracts/errors';
import {
  ExportQuery,
  FileExportFormat,
  VIDEO_RESOLUTIONS,
  VideoRequest,
  VideoStatus,
} from '@tazamun/contracts/exports';
import { RevisionQuery } from '@tazamun/contracts/revisions';
import type { UiLanguage } from '@tazamun/contracts/limits';
import { createError } from '../../errors.ts';
import { readRevision } from '../../revisions/revision-store.ts';
import { VIDEO_FPS } from '../../media/render-video.ts';
import { assertFreeJobRoom } from '../../jobs/fair-share.ts';
import { contentDisposition, safeBaseName, sendStoredFile } from '../../media/send-file.ts';
import { auth, requireApproved } from '../../plugins/auth-guard.ts';
import { getPreferences } from '../../db/preferences.ts';
import { requestLanguage } from '../../plugins/language.ts';
import { IdParams, ownedOr404 } from '../alignments/alignment-routes.ts';
import { buildExport, exportSource } from './export-file.ts';
import type { VideoRow } from '../../db/schema.ts';
import { findVideo, latestVideo, videoOptions } from '../../db/videos.ts';
import { requestVideo } from '../../commands/request-video.ts';

function presentVideo(v: VideoRow, alignmentId: string, lang: UiLanguage) {
  const options = videoOptions(v);
  const [width, height] = VIDEO_RESOLUTIONS[options.resolution];
  return {
    id: v.id,
    status: v.status,
    progress: v.status === 'completed' ? 100 : v.progress,
    options,
    width,
    height,
    fps: options.fps ?? VIDEO_FPS,
    file_size: v.file_size,
    render_time: v.render_time === null ? null : Math.round(v.render_time * 100) / 100,
    error: v.error_code
      ? { code: v.error_code, detail: errorMessage(v.error_code as ErrorCode, lang, { reason: '' }) }
      : null,
    download_url: v.status === 'completed' ? `/api/alignments/${alignmentId}/video/file/` : null,
    created_at: v.created_at,
    completed_at: v.completed_at,
  };
}

export const exportRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const db = deps.db;

  app.get(
    '/:id/export/:format/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['exports'],
        summary:
          'Download the result as JSON, TextGrid, WebVTT, SRT, CSV, ELAN EAF, a read-along page or an EPUB',
        description:
          'JSON: include_metrics, include_audio (base64), pretty. TextGrid/EAF: tier_name, phone_tier, ' +
          'phone_tier_name, phone_label (ipa|model). WebVTT/SRT: min_segment_duration (s), words_per_line, ' +
          'lines_per_cue, timestamps. CSV: separator (comma|semicolon|tab), headers, level (words|phones). ' +
          'readalong: one HTML page with the recording embedded that highlights each word as it is ' +
          'spoken (works offline); epub: an EPUB 3 whose media overlay (SMIL) reads the text aloud word ' +
          'by word. Both carry the recording (MP3 or AAC kept, other formats encoded to AAC). ' +
          'Every format: `revision` (default the latest). The file says which revision it is and whether ' +
          'it was corrected (JSON `revision`, a TextGrid `!` comment, a WebVTT NOTE, EAF header ' +
          'properties), and so do the `X-Tazamun-Revision` and `X-Tazamun-Hand-Corrected` headers.',
        params: IdParams.extend({ format: FileExportFormat }),
        querystring: ExportQuery.extend(RevisionQuery.shape),
      },
    },
    async (request, reply) => {
      const row = await ownedOr404(db, request, request.params.id);
      const result = await readRevision(
        { db, files: deps.files, now: () => deps.clock.now() },
        row,
        request.query.revision,
      );
      const file = await buildExport(
        result,
        request.params.format,
        request.query,
        exportSource(deps.files, row),
        requestLanguage(request),
      );
      const name = `${safeBaseName(row.title ?? 'alignment')}.${file.extension}`;
      return reply
        .type(file.mimeType)
        .header('content-disposition', contentDisposition(name))
        .header('x-tazamun-revision', String(result.revision!.number))
        .header('x-tazamun-hand-corrected', String(result.revision!.hand_corrected))
        .send(typeof file.content === 'string' ? file.content : Buffer.from(file.content));
    },
  );

  app.post(
    '/:id/video/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['exports'],
        summary: 'Render the karaoke MP4 (H.264 + AAC, 30 or 60 fps) as a job; poll GET …/video/',
        params: IdParams,
        body: VideoRequest.optional(),
        response: { 202: VideoStatus },
      },
    },
    async (request, reply) => {
      const row = await ownedOr404(db, request, request.params.id);
      if (row.status !== 'completed') throw createError('alignment_not_ready', { status: row.status });
      const asked = VideoRequest.parse(request.body ?? {});
      // what the request leaves out comes from the user's preferences (frames per second, watermark)
      const prefs = await getPreferences(deps.db, auth(request).user.id);
      const options = {
        ...asked,
        fps: asked.fps ?? (prefs.fps === 'smooth' ? 60 : VIDEO_FPS),
        watermark: asked.watermark ?? prefs.watermark,
      };
      const lang = requestLanguage(request);
      const current = await latestVideo(db, row.id);
      if (current && (current.status === 'queued' || current.status === 'processing')) {
        return reply.code(202).send(presentVideo(current, row.id, lang));
      }
      // videos use no quota unit: a user keeps a few queued or rendering at most (jobs/fair-share.ts)
      await assertFreeJobRoom(db, row.user_id, 'video');
      // one video per alignment: a new render replaces the previous one
      const id = await requestVideo(app, row, options);
      const created = (await findVideo(db, id))!;
      return reply.code(202).send(presentVideo(created, row.id, lang));
    },
  );

  app.get(
    '/:id/video/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['exports'],
        summary: 'Status of the latest video render',
        params: IdParams,
        response: { 200: VideoStatus },
      },
    },
    async (request) => {
      const row = await ownedOr404(db, request, request.params.id);
      const v = await latestVideo(db, row.id);
      if (!v) throw createError('not_found');
      return presentVideo(v, row.id, requestLanguage(request));
    },
  );

  app.get(
    '/:id/video/file/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['exports'],
        summary: 'Download the rendered MP4 (again); Range supported',
        params: IdParams,
        querystring: z.object({ inline: z.enum(['true', 'false']).optional() }),
      },
    },
    async (request, reply) => {
      const row = await ownedOr404(db, request, request.params.id);
      const v = await latestVideo(db, row.id);
      if (!v) throw createError('not_found');
      if (v.status !== 'completed' || !v.file) throw createError('video_not_ready', { status: v.status });
      const name =
        request.query.inline === 'true' ? undefined : `${safeBaseName(row.title ?? 'alignment')}.mp4`;
      return sendStoredFile(
        request,
        reply,
        deps.files.store,
        deps.files.key(row.user_id, v.file),
        'video/mp4',
        name,
      );
    },
  );
};
