// The public demo gallery, and publishing an administrator's own alignment into it.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
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
import type { Db } from '../../db/database.ts';

function completedDemos(db: Db) {
  return db
    .selectFrom('demos')
    .innerJoin('alignments', 'alignments.id', 'demos.alignment_id')
    .where('alignments.status', '=', 'completed')
    .select([
      'demos.id as id',
      'demos.title as title',
      'demos.category as category',
      'demos.description as description',
      'demos.licence as licence',
      'demos.source as source',
      'demos.created_at as created_at',
      'alignments.language as language',
      'alignments.duration as duration',
      'alignments.words as words',
      'alignments.confidence as confidence',
      'alignments.verdict as verdict',
      'alignments.user_id as user_id',
      'alignments.audio_file as audio_file',
      'alignments.audio_format as audio_format',
      'alignments.text_file as text_file',
      'alignments.result_file as result_file',
      'alignments.processed_text as processed_text',
    ]);
}

type DemoRowJoined = Awaited<ReturnType<ReturnType<typeof completedDemos>['executeTakeFirstOrThrow']>>;

const present = (r: DemoRowJoined, lang: UiLanguage): Demo => ({
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

  const one = async (id: string): Promise<DemoRowJoined> => {
    const r = await completedDemos(db).where('demos.id', '=', id).executeTakeFirst();
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
      let query = completedDemos(db);
      if (q.category) query = query.where('demos.category', '=', q.category);
      if (q.language) query = query.where('alignments.language', '=', q.language);
      if (q.duration === 'short') query = query.where('alignments.duration', '<', 30);
      if (q.duration === 'medium')
        query = query.where('alignments.duration', '>=', 30).where('alignments.duration', '<=', 120);
      if (q.duration === 'long') query = query.where('alignments.duration', '>', 120);
      if (q.q?.trim()) {
        const like = `%${q.q
          .trim()
          .toLowerCase()
          .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where(
          sql<boolean>`lower(demos.title || ' ' || demos.description || ' ' || coalesce(alignments.search_text, '')) like ${like} escape '\\'`,
        );
      }
      const rows = await query.orderBy('demos.created_at').orderBy('demos.id').execute();
      const all = await completedDemos(db).execute();
      const preparing = await db
        .selectFrom('demos')
        .innerJoin('alignments', 'alignments.id', 'demos.alignment_id')
        .where('alignments.status', 'in', ['queued', 'processing'])
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow();
      return {
        count: rows.length,
        preparing: Number(preparing.n),
        categories: [...new Set(all.map((r) => r.category))].sort(),
        languages: [...new Set(all.map((r) => r.language))].sort(),
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
      const a = await db
        .selectFrom('alignments')
        .select(['id', 'status'])
        .where('id', '=', b.alignment_id)
        .where('user_id', '=', auth(request).user.id)
        .executeTakeFirst();
      if (!a) throw fieldError({ alignment_id: ['This value is invalid: no such alignment of yours.'] });
      if (a.status !== 'completed') throw createError('alignment_not_ready', { status: a.status });
      const taken = await db
        .selectFrom('demos')
        .select('id')
        .where('alignment_id', '=', a.id)
        .executeTakeFirst();
      if (taken) throw fieldError({ alignment_id: ['This alignment already exists in the gallery.'] });
      const id = randomUUID();
      await db
        .insertInto('demos')
        .values({
          id,
          alignment_id: a.id,
          seed_key: null,
          title: b.title,
          category: b.category,
          description: b.description,
          licence: b.licence,
          source: b.source,
          created_at: deps.clock.now().toISOString(),
        })
        .execute();
      const r = await completedDemos(db).where('demos.id', '=', id).executeTakeFirstOrThrow();
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
      const r = await db.deleteFrom('demos').where('id', '=', request.params.id).executeTakeFirst();
      if (Number(r.numDeletedRows) === 0) throw createError('not_found');
      return reply.code(204).send();
    },
  );
};
