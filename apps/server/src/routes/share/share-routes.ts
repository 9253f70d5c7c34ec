// Share links: the owner creates or revokes a token; anyone with it reads the result and hears the
// audio, nothing else. A revoked token is gone (a new share makes a new token).
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ShareResponse, SharedAlignment } from '@tazamun/contracts/alignments';
import type { Verdict } from '@tazamun/contracts/alignment-result';
import { createError } from '../../errors.ts';
import { readUserText } from '../../jobs/alignment-files.ts';
import { readRevision } from '../../revisions/revision-store.ts';
import { AUDIO_MIME } from '../../media/audio-sniff.ts';
import type { SniffedFormat } from '../../media/audio-sniff.ts';
import { sendStoredFile } from '../../media/send-file.ts';
import { requireApproved } from '../../plugins/auth-guard.ts';
import { IdParams, ownedOr404 } from '../alignments/alignment-routes.ts';
import type { AlignmentRow } from '../../db/schema.ts';
import { createShare, deleteShare, findShare, sharedAlignment } from '../../db/shares.ts';

const TokenParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) });

/** Owner side, under /api/alignments. */
export const shareManagementRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const db = deps.db;

  const present = (token: string, created_at: string) => ({
    token,
    url: `${deps.config.publicUrl}/share/${token}`,
    api_url: `/api/share/${token}/`,
    created_at,
  });

  app.post(
    '/:id/share/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['sharing'],
        summary: 'Create (or return) the public read-only link of a completed alignment',
        params: IdParams,
        response: { 200: ShareResponse, 201: ShareResponse },
      },
    },
    async (request, reply) => {
      const row = await ownedOr404(db, request, request.params.id);
      if (row.status !== 'completed') throw createError('alignment_not_ready', { status: row.status });
      const existing = await findShare(db, row.id);
      if (existing) return reply.code(200).send(present(existing.token, existing.created_at));
      const token = randomBytes(24).toString('base64url');
      const created_at = deps.clock.now().toISOString();
      await createShare(db, { token, alignment_id: row.id, created_at });
      return reply.code(201).send(present(token, created_at));
    },
  );

  app.get(
    '/:id/share/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['sharing'],
        summary: 'The current share link (404 when not shared)',
        params: IdParams,
        response: { 200: ShareResponse },
      },
    },
    async (request) => {
      const row = await ownedOr404(db, request, request.params.id);
      const s = await findShare(db, row.id);
      if (!s) throw createError('not_found');
      return present(s.token, s.created_at);
    },
  );

  app.delete(
    '/:id/share/',
    {
      onRequest: requireApproved,
      schema: { tags: ['sharing'], summary: 'Revoke the public link', params: IdParams },
    },
    async (request, reply) => {
      const row = await ownedOr404(db, request, request.params.id);
      await deleteShare(db, row.id);
      return reply.code(204).send();
    },
  );
};

/** Public side, under /api/share. */
export const publicShareRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const db = deps.db;

  const byToken = async (token: string): Promise<AlignmentRow> => {
    const row = await sharedAlignment(db, token);
    if (!row) throw createError('not_found');
    return row;
  };

  app.get(
    '/:token/',
    {
      schema: {
        tags: ['sharing'],
        summary: 'Public read-only result of a shared alignment',
        security: [],
        params: TokenParams,
        response: { 200: SharedAlignment },
      },
    },
    async (request) => {
      const row = await byToken(request.params.token);
      const text = await readUserText(deps.files, row.user_id, row.text_file!);
      return {
        title: row.title ?? row.file_name ?? '',
        language: row.language,
        verdict: (row.verdict as Verdict | null) ?? null,
        duration: row.duration,
        confidence: row.confidence,
        wer: row.wer,
        cer: row.cer,
        words: row.words,
        coverage: row.coverage,
        original_text: text,
        processed_text: row.processed_text,
        // share links show the latest revision, corrections included
        result: await readRevision({ db, files: deps.files, now: () => deps.clock.now() }, row),
        audio_url: `/api/share/${request.params.token}/audio/`,
        created_at: row.created_at,
      };
    },
  );

  app.get(
    '/:token/audio/',
    {
      schema: {
        tags: ['sharing'],
        summary: 'Audio of a shared alignment (Range supported)',
        security: [],
        params: TokenParams,
      },
    },
    async (request, reply) => {
      const row = await byToken(request.params.token);
      return sendStoredFile(
        request,
        reply,
        deps.files.store,
        deps.files.key(row.user_id, row.audio_file!),
        AUDIO_MIME[row.audio_format as SniffedFormat] ?? 'application/octet-stream',
      );
    },
  );
};
