// /api/projects/: group alignments. Deleting a project leaves its alignments unassigned.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MoveAlignments,
  MoveResult,
  Project,
  ProjectCreate,
  ProjectList,
  ProjectUpdate,
} from '@tazamun/contracts/projects';
import { createError } from '../../errors.ts';
import { auth, requireApproved } from '../../plugins/auth-guard.ts';
import { IdParams } from '../alignments/alignment-routes.ts';
import type { Db } from '../../db/database.ts';
import type { ProjectRow } from '../../db/schema.ts';

async function withTotals(db: Db, rows: ProjectRow[]) {
  if (rows.length === 0) return [];
  const totals = await db
    .selectFrom('alignments')
    .select([
      'project_id',
      sql<number>`count(*)`.as('n'),
      sql<number>`sum(case when status = 'completed' then 1 else 0 end)`.as('done'),
      sql<number>`sum(case when status = 'completed' then coalesce(duration, 0) else 0 end)`.as('duration'),
      sql<number | null>`avg(case when status = 'completed' then confidence end)`.as('confidence'),
    ])
    .where(
      'project_id',
      'in',
      rows.map((r) => r.id),
    )
    .groupBy('project_id')
    .execute();
  const by = new Map(totals.map((t) => [t.project_id, t]));
  return rows.map((r) => {
    const t = by.get(r.id);
    return {
      id: r.id,
      name: r.name,
      description: r.description,
      alignments_count: Number(t?.n ?? 0),
      completed_count: Number(t?.done ?? 0),
      total_duration: Math.round(Number(t?.duration ?? 0) * 1000) / 1000,
      mean_confidence: t?.confidence == null ? null : Math.round(Number(t.confidence) * 10000) / 10000,
      created_at: r.created_at,
      updated_at: r.updated_at,
    };
  });
}

export const projectRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const db = deps.db;

  const owned = async (userId: string, id: string): Promise<ProjectRow> => {
    const p = await db
      .selectFrom('projects')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!p) throw createError('not_found');
    return p;
  };
  const present = async (p: ProjectRow) => (await withTotals(db, [p]))[0]!;

  app.get(
    '/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['projects'],
        summary: 'The caller’s projects with totals',
        response: { 200: ProjectList },
      },
    },
    async (request) => {
      const rows = await db
        .selectFrom('projects')
        .selectAll()
        .where('user_id', '=', auth(request).user.id)
        .orderBy('updated_at', 'desc')
        .orderBy('id')
        .execute();
      const results = await withTotals(db, rows);
      return { count: results.length, results };
    },
  );

  app.post(
    '/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['projects'],
        summary: 'Create a project',
        body: ProjectCreate,
        response: { 201: Project },
      },
    },
    async (request, reply) => {
      const nowIso = deps.clock.now().toISOString();
      const row = await db
        .insertInto('projects')
        .values({
          id: randomUUID(),
          user_id: auth(request).user.id,
          name: request.body.name,
          description: request.body.description,
          created_at: nowIso,
          updated_at: nowIso,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return reply.code(201).send(await present(row));
    },
  );

  app.get(
    '/:id/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['projects'],
        summary: 'One project with totals',
        params: IdParams,
        response: { 200: Project },
      },
    },
    async (request) => present(await owned(auth(request).user.id, request.params.id)),
  );

  app.patch(
    '/:id/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['projects'],
        summary: 'Rename or describe a project',
        params: IdParams,
        body: ProjectUpdate,
        response: { 200: Project },
      },
    },
    async (request) => {
      const p = await owned(auth(request).user.id, request.params.id);
      await db
        .updateTable('projects')
        .set({ ...request.body, updated_at: deps.clock.now().toISOString() })
        .where('id', '=', p.id)
        .execute();
      return present(await owned(p.user_id, p.id));
    },
  );

  app.delete(
    '/:id/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['projects'],
        summary: 'Delete a project; its alignments stay, unassigned',
        params: IdParams,
      },
    },
    async (request, reply) => {
      const p = await owned(auth(request).user.id, request.params.id);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('alignments')
          .set({ project_id: null })
          .where('project_id', '=', p.id)
          .execute();
        await trx.deleteFrom('projects').where('id', '=', p.id).execute();
      });
      return reply.code(204).send();
    },
  );

  app.post(
    '/:id/alignments/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['projects'],
        summary: 'Move alignments into this project (all must be the caller’s)',
        params: IdParams,
        body: MoveAlignments,
        response: { 200: MoveResult },
      },
    },
    async (request) => {
      const userId = auth(request).user.id;
      const p = await owned(userId, request.params.id);
      const ids = [...new Set(request.body.alignment_ids)];
      const moved = await db.transaction().execute(async (trx) => {
        const mine = await trx
          .selectFrom('alignments')
          .select('id')
          .where('user_id', '=', userId)
          .where('id', 'in', ids)
          .execute();
        // Another user's alignment is as unknown as a missing one: 404, not a hint that it exists.
        if (mine.length !== ids.length) throw createError('not_found');
        const nowIso = deps.clock.now().toISOString();
        await trx
          .updateTable('alignments')
          .set({ project_id: p.id, updated_at: nowIso })
          .where('id', 'in', ids)
          .execute();
        await trx.updateTable('projects').set({ updated_at: nowIso }).where('id', '=', p.id).execute();
        return ids.length;
      });
      return { moved, project: await present(await owned(userId, p.id)) };
    },
  );
};
