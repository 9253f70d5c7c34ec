// /api/projects/: group alignments. Deleting a project leaves its alignments unassigned.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MoveAlignments,
  MoveResult,
  Project,
  ProjectCreate,
  ProjectList,
  ProjectUpdate,
} from '@tazamun/contracts/projects';
import { deleteProjectModels } from '../../commands/adaptation.ts';
import { createError } from '../../errors.ts';
import { auth, requireApproved } from '../../plugins/auth-guard.ts';
import { IdParams } from '../alignments/alignment-routes.ts';
import type { Db } from '../../db/database.ts';
import {
  createProject,
  deleteProject,
  findOwnedProject,
  listProjects,
  moveAlignmentsToProject,
  projectTotals,
  updateProject,
} from '../../db/projects.ts';
import type { ProjectRow } from '../../db/schema.ts';

async function withTotals(db: Db, rows: ProjectRow[]) {
  const totals = await projectTotals(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const t = totals.get(r.id);
    return {
      id: r.id,
      name: r.name,
      description: r.description,
      alignments_count: t?.alignments ?? 0,
      completed_count: t?.completed ?? 0,
      total_duration: Math.round((t?.duration ?? 0) * 1000) / 1000,
      mean_confidence: t?.confidence == null ? null : Math.round(t.confidence * 10000) / 10000,
      use_adapted_model: r.use_adapted_model === 1,
      created_at: r.created_at,
      updated_at: r.updated_at,
    };
  });
}

export const projectRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const db = deps.db;

  const owned = async (userId: string, id: string): Promise<ProjectRow> => {
    const p = await findOwnedProject(db, userId, id);
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
      const rows = await listProjects(db, auth(request).user.id);
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
      const { name, description } = request.body;
      const row = await createProject(
        db,
        auth(request).user.id,
        { name, description },
        deps.clock.now().toISOString(),
      );
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
        summary: 'Rename or describe a project, or turn its adapted models on or off for new uploads',
        params: IdParams,
        body: ProjectUpdate,
        response: { 200: Project },
      },
    },
    async (request) => {
      const p = await owned(auth(request).user.id, request.params.id);
      await updateProject(db, p.id, request.body, deps.clock.now().toISOString());
      return present(await owned(p.user_id, p.id));
    },
  );

  app.delete(
    '/:id/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['projects'],
        summary: 'Delete a project; its alignments stay, unassigned; its adapted models are deleted',
        params: IdParams,
      },
    },
    async (request, reply) => {
      const p = await owned(auth(request).user.id, request.params.id);
      // its adapted models go with it, files included
      await deleteProjectModels(app, p.id);
      await deleteProject(db, p.id);
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
      const moved = await moveAlignmentsToProject(db, userId, p.id, ids, deps.clock.now().toISOString());
      // Another user's alignment is as unknown as a missing one: 404, not a hint that it exists.
      if (moved === null) throw createError('not_found');
      return { moved, project: await present(await owned(userId, p.id)) };
    },
  );
};
