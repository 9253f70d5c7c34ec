// The public demo gallery, and publishing an administrator's own alignment into it.
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  Demo,
  DemoDetail,
  DemoList,
  DemoListQuery,
  DemoPublish,
  pickLocalised,
} from '@tazamun/contracts/demos';
import type { UiLanguage } from '@tazamun/contracts/limits';
import type { Verdict } from '@tazamun/contracts/alignment-result';
import { createError, fieldError } from '../../errors.ts';
import { readResult, readUserText } from '../../jobs/alignment-files.ts';
import { AUDIO_MIME } from '../../media/audio-sniff.ts';
import type { SniffedFormat } from '../../media/audio-sniff.ts';
import { sendStoredFile } from '../../media/send-file.ts';
import { auth, requireAdmin } from '../../plugins/auth-guard.ts';
import { requestLanguage } from '../../plugins/language.ts';
import { IdParams } from '../alignments/alignment-routes.ts';
import { findOwnedAlignment } from '../../db/alignments.ts';
import { deleteDemo, findDemo, galleryFacets, insertDemo, isDemo, searchDemos } from '../../db/demos.ts';
import type { GalleryDemo } from '../../db/demos.ts';

const present = (r: GalleryDemo, lang: UiLanguage): Demo => ({
  id: r.id,
  title: r.title,
  language: r.language,
  category: r.category,
  description: pickLocalised(r.description, lang),
  licence: pickLocalised(r.licence, lang),
  source: pickLocalised(r.source, lang),
  duration: r.duration === null ? null : Math.round(r.duration * 1000) / 1000,
  words: r.words,
  confidence: r.confidence === null ? null : Math.round(r.confidence * 10000) / 10000,
  verdict: (r.verdict as Verdict | null) ?? null,
  audio_url: `/api/demos/${r.id}/audio/`,
  created_at: r.created_at,
});

export const demoRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const db = deps.db;

  const one = async (id: string): Promise<GalleryDemo> => {
    const r = await findDemo(db, id);
    if (!r) throw createError('not_found');
    return r;
  };

  app.get(
    '/',
    {
      schema: {
        tags: ['demos'],
        summary: 'Public gallery: search (title, description, transcript) and filters',
        security: [],
        querystring: DemoListQuery,
        response: { 200: DemoList },
      },
    },
    async (request) => {
      const q = request.query;
      const rows = await searchDemos(db, q);
      const { categories, languages, preparing } = await galleryFacets(db);
      return {
        count: rows.length,
        preparing,
        categories,
        languages,
        results: rows.map((r) => present(r, requestLanguage(request))),
      };
    },
  );

  app.get(
    '/:id/',
    {
      schema: {
        tags: ['demos'],
        summary: 'One demo with its texts and result',
        security: [],
        params: IdParams,
        response: { 200: DemoDetail },
      },
    },
    async (request) => {
      const r = await one(request.params.id);
      return {
        ...present(r, requestLanguage(request)),
        original_text: await readUserText(deps.files, r.user_id, r.text_file!),
        processed_text: r.processed_text,
        result: (await readResult(deps.files, r.user_id, r.result_file))!,
      };
    },
  );

  app.get(
    '/:id/audio/',
    { schema: { tags: ['demos'], summary: 'Demo audio (Range supported)', security: [], params: IdParams } },
    async (request, reply) => {
      const r = await one(request.params.id);
      return sendStoredFile(
        request,
        reply,
        deps.files.store,
        deps.files.key(r.user_id, r.audio_file!),
        AUDIO_MIME[r.audio_format as SniffedFormat] ?? 'application/octet-stream',
      );
    },
  );
};

/** Under /api/admin. */
export const adminDemoRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const db = deps.db;

  app.post(
    '/demos/',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['demos'],
        summary: 'Publish one of the administrator’s own completed alignments in the gallery',
        body: DemoPublish,
        response: { 201: Demo },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const a = await findOwnedAlignment(db, auth(request).user.id, b.alignment_id);
      if (!a) throw fieldError({ alignment_id: ['This value is invalid: no such alignment of yours.'] });
      if (a.status !== 'completed') throw createError('alignment_not_ready', { status: a.status });
      if (await isDemo(db, a.id))
        throw fieldError({ alignment_id: ['This alignment already exists in the gallery.'] });
      const id = randomUUID();
      await insertDemo(db, {
        id,
        alignment_id: a.id,
        seed_key: null,
        title: b.title,
        category: b.category,
        description: b.description,
        licence: b.licence,
        source: b.source,
        created_at: deps.clock.now().toISOString(),
      });
      const r = await findDemo(db, id);
      if (!r) throw createError('not_found');
      return reply.code(201).send(present(r, requestLanguage(request)));
    },
  );

  app.delete(
    '/demos/:id/',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['demos'],
        summary: 'Remove a demo from the gallery (the alignment itself stays)',
        params: z.object({ id: z.string() }),
      },
    },
    async (request, reply) => {
      if (!(await deleteDemo(db, request.params.id))) throw createError('not_found');
      return reply.code(204).send();
    },
  );
};
