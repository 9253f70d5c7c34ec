// /api/alignments/{id}/revisions/ and /realign/: hand corrections saved as revisions, and stretches
// re-aligned by the engine. Scoped to the caller's own alignments like every alignment route.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MAX_REVISIONS,
  REVISION_SAVES_PER_MINUTE,
  RealignRequest,
  RealignStatus,
  RevisionCreate,
  RevisionCreated,
  RevisionList,
} from '@tazamun/contracts/revisions';
import { latestRealignment } from '../../db/revisions.ts';
import { createError } from '../../errors.ts';
import { requireApproved } from '../../plugins/auth-guard.ts';
import { requestLanguage } from '../../plugins/language.ts';
import { requestRealignment } from '../../commands/request-realignment.ts';
import { presentRealignment } from './present-realignment.ts';
import { createRevision, listRevisions } from '../../revisions/revision-store.ts';
import { IdParams, ownedOr404 } from '../alignments/alignment-routes.ts';

export const revisionRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.deps.db;
  const deps = { db, files: app.deps.files, now: () => app.deps.clock.now() };

  app.get(
    '/:id/revisions/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['revisions'],
        summary: 'The revisions of an alignment, oldest first (revision 1 is the engine’s result)',
        params: IdParams,
        response: { 200: RevisionList },
      },
    },
    async (request) => {
      const row = await ownedOr404(db, request, request.params.id);
      if (row.status !== 'completed') throw createError('alignment_not_ready', { status: row.status });
      return listRevisions(db, row);
    },
  );

  app.post(
    '/:id/revisions/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['revisions'],
        summary: 'Save corrections as a new revision on top of base_revision',
        description:
          `At most ${MAX_REVISIONS} revisions per alignment (409 \`revision_limit\`) and ` +
          `${REVISION_SAVES_PER_MINUTE} saves a minute per user (429 \`rate_limited\`); a save that ` +
          'changes nothing stores nothing and answers 200 with the latest revision. ' +
          'Edits by word `index`: `words` (start, end, label), `phones` (by word_index and position), ' +
          '`word_phones` (a word’s whole phone tier, for splits and merges). Changed words must lie inside ' +
          'the audio, end after they start and not overlap their neighbours (400 naming the word: ' +
          '`word_outside_audio`, `word_end_before_start`, `word_overlap`, `phone_invalid`); a ' +
          'base_revision that is not the latest gets 409 `revision_conflict`.',
        params: IdParams,
        body: RevisionCreate,
        response: { 200: RevisionCreated, 201: RevisionCreated },
      },
      // a person saves a few times a minute; a script replaying saves is slowed down (per user)
      config: {
        rateLimit: {
          max: REVISION_SAVES_PER_MINUTE,
          timeWindow: '1 minute',
          keyGenerator: (request: FastifyRequest) => `revisions:${request.auth?.user.id ?? request.ip}`,
        },
      },
    },
    async (request, reply) => {
      const row = await ownedOr404(db, request, request.params.id);
      if (row.status !== 'completed') throw createError('alignment_not_ready', { status: row.status });
      const saved = await createRevision(deps, row, request.body);
      return reply.code(saved.created ? 201 : 200).send(saved.revision);
    },
  );

  app.post(
    '/:id/realign/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['revisions'],
        summary: 'Re-align a stretch (start, end in seconds; optional corrected text) as a job',
        description:
          'The engine aligns only that window of the audio (widened to the words it cuts); the words ' +
          'outside keep their times. The result becomes a new revision (author `realign`). Uses no ' +
          'quota unit; one re-alignment per alignment at a time (409 `realign_busy`); a stretch is at ' +
          'most 60 s (400 `realign_too_long`). Poll `GET …/realign/`.',
        params: IdParams,
        body: RealignRequest,
        response: { 202: RealignStatus },
      },
    },
    async (request, reply) => {
      const row = await ownedOr404(db, request, request.params.id);
      if (row.status !== 'completed') throw createError('alignment_not_ready', { status: row.status });
      const created = await requestRealignment(
        { ...deps, queue: app.jobs.queue, jobConfig: app.jobs.config },
        row,
        request.body,
      );
      return reply.code(202).send(presentRealignment(created, requestLanguage(request)));
    },
  );

  app.get(
    '/:id/realign/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['revisions'],
        summary: 'The latest re-alignment request and its state (404 when there was none)',
        params: IdParams,
        response: { 200: RealignStatus },
      },
    },
    async (request) => {
      const row = await ownedOr404(db, request, request.params.id);
      const latest = await latestRealignment(db, row.id);
      if (!latest) throw createError('not_found');
      return presentRealignment(latest, requestLanguage(request));
    },
  );
};
