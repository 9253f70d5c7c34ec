// /api/alignments/: upload, list, read, rename/move, delete, progress (poll and server-sent events),
// cancel, retry, and the audio for the player. Every route is scoped to the caller's own alignments.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AlignmentDetail,
  AlignmentListQuery,
  AlignmentListResponse,
  AlignmentSummary,
  AlignmentUpdate,
  AudioUrlResponse,
  Progress,
  SignedAudioQuery,
  StreamTicket,
} from '@tazamun/contracts/alignments';
import { RevisionQuery } from '@tazamun/contracts/revisions';
import {
  findAlignmentOfApprovedOwner,
  findOwnedAlignment,
  latestJob,
  listAlignments,
  sharedIds,
  updateAlignment,
} from '../../db/alignments.ts';
import { findApiTokenUserById } from '../../db/api-tokens.ts';
import { findOwnedProject } from '../../db/projects.ts';
import { findSessionUser } from '../../db/sessions.ts';
import { deleteAlignment } from '../../commands/delete-alignment.ts';
import { AppError, createError, fieldError } from '../../errors.ts';
import { readUserText } from '../../jobs/alignment-files.ts';
import { logFailure } from '../../reliability/unavailable.ts';
import type { JobUpdate } from '../../jobs/job-queue.ts';
import { AUDIO_MIME } from '../../media/audio-sniff.ts';
import type { SniffedFormat } from '../../media/audio-sniff.ts';
import { sendStoredFile } from '../../media/send-file.ts';
import { auth, requireApproved } from '../../plugins/auth-guard.ts';
import { requestLanguage } from '../../plugins/language.ts';
import { readRevision } from '../../revisions/revision-store.ts';
import { presentAlignment, presentProgress } from './present-alignment.ts';
import { retryAlignment } from '../../commands/retry-alignment.ts';
import { acceptUpload } from './upload.ts';
import type { Db } from '../../db/database.ts';
import type { AlignmentRow } from '../../db/schema.ts';
import { latestVideo } from '../../db/videos.ts';

export const IdParams = z.object({ id: z.string().min(1).max(64) });
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
// Long enough to listen to a long recording in one sitting (the player asks for byte ranges as it
// plays), short enough that a leaked URL soon stops working.
export const AUDIO_URL_TTL_SECONDS = 60 * 60;

/** The row, or 404 for ids that do not exist and for other users' ids alike. */
export async function ownedOr404(db: Db, request: FastifyRequest, id: string): Promise<AlignmentRow> {
  const row = await findOwnedAlignment(db, auth(request).user.id, id);
  if (!row) throw createError('not_found');
  return row;
}

async function isShared(db: Db, id: string): Promise<boolean> {
  return (await sharedIds(db, [id])).has(id);
}

/** How long a progress-stream ticket may wait to be used: enough for EventSource's own reconnects. */
export const STREAM_TICKET_TTL_SECONDS = 60;

/**
 * EventSource cannot send headers. A `?ticket=` (POST …/events/ticket/: one alignment's stream, one
 * minute, its session checked again here) keeps the access token out of URLs and access logs; the
 * older `?access_token=` is still taken for existing clients.
 */
async function credentialsFromQuery(request: FastifyRequest): Promise<void> {
  const q = (request.query as Record<string, unknown> | undefined) ?? {};
  if (request.headers.authorization) return;
  if (typeof q.ticket === 'string') {
    const { deps } = request.server;
    const id = (request.params as { id?: string }).id ?? '';
    const claims = deps.tokens.verifyStreamTicket(q.ticket, id);
    if (!claims) throw createError('token_invalid');
    const nowIso = deps.clock.now().toISOString();
    const apiTokenId = claims.sid.startsWith('api-token:') ? claims.sid.slice('api-token:'.length) : null;
    const user = apiTokenId
      ? await findApiTokenUserById(deps.db, apiTokenId, nowIso)
      : await findSessionUser(deps.db, claims.sid, claims.sub, nowIso);
    if (!user || user.id !== claims.sub) throw createError('token_invalid');
    request.auth = { user, sessionId: claims.sid, apiTokenId };
    return;
  }
  if (typeof q.access_token === 'string' && q.access_token)
    request.headers.authorization = `Bearer ${q.access_token}`;
}

export const alignmentRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const db = deps.db;
  const gate = app.probeGate;

  app.post(
    '/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['alignments'],
        summary: 'Upload audio + transcript and queue an alignment (multipart/form-data)',
        description:
          'Fields: `audio` (file, MP3/WAV/M4A/OGG recognised by content, ≤ 50 MB), `text` (field) or ' +
          '`text_file` (UTF-8 file ≤ 5 MB), `language` (ISO 639-3 such as `ara`, or ISO 639-1 such as `ar`; the answer always carries the 639-3 code), optional ' +
          '`precision` (standard|high|ultra), `normalize`, `remove_fillers`, `numbers_to_words` ' +
          '(true|false), `engine` (auto|hmm|mms), `input_kind` (orthography|ipa), `title`, `project_id`. ' +
          'Refused with 422 before any quota is used when the job breaks its bounds: ' +
          '`transcript_too_long`, `audio_too_long` (MAX_AUDIO_DURATION), `audio_sample_rate_too_low`. ' +
          'Uses one unit of the daily quota when accepted (202); it is given back if the job fails ' +
          'for a reason that is not the audio’s or the transcript’s.',
        consumes: ['multipart/form-data'],
        response: { 202: AlignmentSummary },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart())
        throw createError('bad_request', {}, { non_field_errors: ['Send multipart/form-data.'] });
      try {
        // Refused before the body is read when even the wait queue is full: the client keeps its bytes.
        if (gate.full) throw gate.busyError();
        const row = await acceptUpload(request, auth(request).user.id, gate);
        reply.code(202).header('location', `/api/alignments/${row.id}/`);
        return presentAlignment(row, requestLanguage(request), false);
      } catch (err) {
        if (err instanceof AppError && err.code === 'server_busy')
          reply.header('retry-after', String(err.params.seconds));
        throw err;
      }
    },
  );

  app.get(
    '/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['alignments'],
        summary: 'The caller’s alignments, newest first, with filters and search',
        querystring: AlignmentListQuery,
        response: { 200: AlignmentListResponse },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, count } = await listAlignments(db, auth(request).user.id, {
        ...q,
        pageSize: q.page_size,
      });
      const shared = await sharedIds(
        db,
        rows.map((r) => r.id),
      );
      const lang = requestLanguage(request);
      return {
        count,
        page: q.page,
        page_size: q.page_size,
        next: q.page * q.page_size < count ? q.page + 1 : null,
        previous: q.page > 1 ? q.page - 1 : null,
        results: rows.map((r) => presentAlignment(r, lang, shared.has(r.id))),
      };
    },
  );

  app.get(
    '/:id/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['alignments'],
        summary: 'One alignment with its texts and, once completed, the result JSON of its latest revision',
        description: '`?revision=N` returns an earlier revision’s result (404 past the latest).',
        params: IdParams,
        querystring: RevisionQuery,
        response: { 200: AlignmentDetail },
      },
    },
    async (request) => {
      const row = await ownedOr404(db, request, request.params.id);
      const original = row.text_file
        ? await readUserText(deps.files, row.user_id, row.text_file!).catch(() => '')
        : '';
      return {
        ...presentAlignment(row, requestLanguage(request), await isShared(db, row.id)),
        original_text: original,
        processed_text: row.processed_text,
        result:
          row.status === 'completed'
            ? await readRevision(
                { db, files: deps.files, now: () => deps.clock.now() },
                row,
                request.query.revision,
              )
            : null,
        // so a page opened again finds the video rendered before, without asking for one that is not there
        video: await latestVideo(db, row.id).then((v) => (v ? { status: v.status } : null)),
      };
    },
  );

  app.patch(
    '/:id/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['alignments'],
        summary: 'Rename, or move to a project (project_id null: unassigned)',
        params: IdParams,
        body: AlignmentUpdate,
        response: { 200: AlignmentSummary },
      },
    },
    async (request) => {
      const row = await ownedOr404(db, request, request.params.id);
      const { title, project_id } = request.body;
      if (project_id) {
        const p = await findOwnedProject(db, row.user_id, project_id);
        if (!p) throw fieldError({ project_id: ['This value is invalid: no such project.'] });
      }
      await updateAlignment(db, row.id, { title, project_id }, deps.clock.now().toISOString());
      const fresh = (await findOwnedAlignment(db, row.user_id, row.id))!;
      return presentAlignment(fresh, requestLanguage(request), await isShared(db, row.id));
    },
  );

  app.delete(
    '/:id/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['alignments'],
        summary: 'Delete the alignment, its jobs, video, share link and files',
        params: IdParams,
      },
    },
    async (request, reply) => {
      const row = await ownedOr404(db, request, request.params.id);
      await deleteAlignment(app, row);
      return reply.code(204).send();
    },
  );

  app.get(
    '/:id/progress/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['alignments'],
        summary: 'Status, step and percentage of the processing (for polling)',
        params: IdParams,
        response: { 200: Progress },
      },
    },
    async (request) =>
      presentProgress(await ownedOr404(db, request, request.params.id), requestLanguage(request)),
  );

  app.post(
    '/:id/events/ticket/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['alignments'],
        summary: 'A one-minute ticket opening this alignment’s progress stream (EventSource sends no header)',
        params: IdParams,
        response: { 201: StreamTicket },
      },
    },
    async (request, reply) => {
      const row = await ownedOr404(db, request, request.params.id);
      const { user, sessionId } = auth(request);
      const exp = Math.floor(deps.clock.now().getTime() / 1000) + STREAM_TICKET_TTL_SECONDS;
      const ticket = deps.tokens.signStreamTicket({ alignmentId: row.id, sid: sessionId, sub: user.id, exp });
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({ ticket, expires_at: new Date(exp * 1000).toISOString() });
    },
  );

  app.get(
    '/:id/events/',
    {
      onRequest: [credentialsFromQuery, requireApproved],
      schema: {
        tags: ['alignments'],
        summary: 'Server-sent events: `progress` events until the job ends, then `end`',
        description:
          "Each event's data is the Progress JSON. The stream closes after the final state. " +
          'EventSource cannot send headers: open it with `?ticket=` from ' +
          '`POST /api/alignments/{id}/events/ticket/` (one minute, this alignment only). ' +
          '`?access_token=` is still accepted, but it puts the access token in the URL: avoid it.',
        params: IdParams,
        querystring: z.object({
          ticket: z.string().max(1024).optional(),
          access_token: z.string().optional(),
          lang: z.string().optional(),
        }),
      },
    },
    async (request, reply) => {
      const first = await ownedOr404(db, request, request.params.id);
      const lang = requestLanguage(request);
      // EventSource reconnects whenever a stream closes; one that already saw the end (it sends the
      // last event id back) gets 204, which tells it to stop.
      if (request.headers['last-event-id'] === 'end' && TERMINAL.has(first.status))
        return reply.code(204).send();
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      let last = '';
      let closed = false;
      let timer: NodeJS.Timeout | null = null;
      let keepAlive: NodeJS.Timeout | null = null;
      const finish = (): void => {
        if (closed) return;
        closed = true;
        if (timer) clearInterval(timer);
        if (keepAlive) clearInterval(keepAlive);
        app.jobs.queue.events.off('update', onUpdate);
        res.end();
      };
      const push = async (): Promise<void> => {
        if (closed) return;
        const row = await findOwnedAlignment(db, first.user_id, first.id);
        if (closed) return;
        if (!row) {
          res.write(`event: end\ndata: ${JSON.stringify({ id: first.id, status: 'deleted' })}\n\n`);
          return finish();
        }
        const p = presentProgress(row, lang);
        const data = JSON.stringify(p);
        if (data !== last) {
          last = data;
          res.write(`event: progress\ndata: ${data}\n\n`);
        }
        if (TERMINAL.has(p.status)) {
          res.write(`id: end\nevent: end\ndata: ${data}\n\n`);
          finish();
        }
      };
      // a failed read (the database restarting) skips one update; the next tick tries again
      const pushCaught = (): void => {
        push().catch((err: unknown) => logFailure(request.log, 'warn', err, 'progress stream: read failed'));
      };
      const onUpdate = (u: JobUpdate): void => {
        if (u.alignmentId === first.id) pushCaught();
      };
      app.jobs.queue.events.on('update', onUpdate);
      // Another process (npm run worker) may run the job: poll the row as well.
      timer = setInterval(pushCaught, 1000);
      keepAlive = setInterval(() => !closed && res.write(': keep-alive\n\n'), 15_000);
      request.raw.on('close', finish);
      res.write('retry: 2000\n\n');
      await push();
    },
  );

  app.post(
    '/:id/cancel/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['alignments'],
        summary: 'Cancel a queued or running alignment (409 job_not_cancellable otherwise)',
        params: IdParams,
        response: { 200: AlignmentSummary },
      },
    },
    async (request) => {
      const row = await ownedOr404(db, request, request.params.id);
      const job = await latestJob(db, row.id);
      if (!job || (job.status !== 'queued' && job.status !== 'processing'))
        throw createError('job_not_cancellable', { status: row.status });
      const outcome = await app.jobs.queue.cancel(job.id);
      if (outcome === 'not_cancellable') throw createError('job_not_cancellable', { status: row.status });
      const fresh = (await findOwnedAlignment(db, row.user_id, row.id))!;
      return presentAlignment(fresh, requestLanguage(request), await isShared(db, row.id));
    },
  );

  app.post(
    '/:id/retry/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['alignments'],
        summary: 'Run a failed or cancelled alignment again with the same files and options',
        description:
          'Uses one unit of the daily quota, like a new upload (429 `quota_exhausted` when none is left); ' +
          '409 `alignment_not_retryable` for an alignment that is queued, running or completed.',
        params: IdParams,
        response: { 202: AlignmentSummary },
      },
    },
    async (request, reply) => {
      const row = await ownedOr404(db, request, request.params.id);
      const fresh = await retryAlignment(app, row);
      reply.code(202);
      return presentAlignment(fresh, requestLanguage(request), await isShared(db, row.id));
    },
  );

  app.get(
    '/:id/audio-url/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['alignments'],
        summary: 'A signed URL streaming the audio without a header (for the player), valid one hour',
        params: IdParams,
        response: { 200: AudioUrlResponse },
      },
    },
    async (request) => {
      const row = await ownedOr404(db, request, request.params.id);
      const exp = Math.floor(deps.clock.now().getTime() / 1000) + AUDIO_URL_TTL_SECONDS;
      const sig = deps.tokens.signAudio(row.id, exp);
      return {
        url: `/api/alignments/${encodeURIComponent(row.id)}/audio/?sig=${sig}&exp=${exp}`,
        expires_at: new Date(exp * 1000).toISOString(),
      };
    },
  );

  app.get(
    '/:id/audio/',
    {
      schema: {
        tags: ['alignments'],
        summary:
          'The uploaded audio, with HTTP Range support for seeking (Bearer owner, or ?sig=&exp= from audio-url)',
        description:
          'With `sig` and `exp` (both from `GET /api/alignments/{id}/audio-url/`) no Authorization header is ' +
          'needed; a signature that is wrong, expired or made for another alignment gets 401 `token_invalid`.',
        security: [{ bearer: [] }, {}],
        params: IdParams,
        querystring: SignedAudioQuery,
      },
    },
    async (request, reply) => {
      const { sig, exp } = request.query;
      const row =
        sig === undefined && exp === undefined
          ? await requireApproved(request).then(() => ownedOr404(db, request, request.params.id))
          : await signedOr404(request.params.id, sig, exp);
      return sendStoredFile(
        request,
        reply,
        deps.files.store,
        deps.files.key(row.user_id, row.audio_file!),
        AUDIO_MIME[row.audio_format as SniffedFormat] ?? 'application/octet-stream',
      );
    },
  );

  /** The row a valid signature names; 401 for a bad or expired signature, 404 once the alignment or its owner's approval is gone. */
  async function signedOr404(id: string, sig?: string, exp?: string): Promise<AlignmentRow> {
    if (!sig || !exp || !deps.tokens.verifyAudio(id, exp, sig)) throw createError('token_invalid');
    // a signature outlives nothing: once the owner is rejected it opens no more audio
    const row = await findAlignmentOfApprovedOwner(db, id);
    if (!row) throw createError('not_found');
    return row;
  }
};
