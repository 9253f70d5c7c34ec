// The projects repository. Every lookup is scoped by the owner, so another user's project is "not
// found". Deleting a project leaves its alignments unassigned.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './database.ts';
import type { AlignmentRow, ProjectRow } from './schema.ts';

export interface ProjectTotals {
  alignments: number;
  completed: number;
  /** seconds of completed audio */
  duration: number;
  /** mean confidence of the completed alignments, null when none has one */
  confidence: number | null;
}

export function findOwnedProject(db: Db, userId: string, id: string): Promise<ProjectRow | undefined> {
  return db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The project's completed alignments, by source file name (the project export's order). */
export function completedProjectAlignments(
  db: Db,
  userId: string,
  projectId: string,
): Promise<AlignmentRow[]> {
  return db
    .selectFrom('alignments')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('status', '=', 'completed')
    .orderBy('file_name')
    .orderBy('id')
    .execute();
}

/** The owner's projects, the most recently changed first. */
export function listProjects(db: Db, userId: string): Promise<ProjectRow[]> {
  return db
    .selectFrom('projects')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .orderBy('id')
    .execute();
}

/** The totals of each project's alignments, by project id (absent: no alignment). */
export async function projectTotals(db: Db, ids: string[]): Promise<Map<string, ProjectTotals>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('alignments')
    .select([
      'project_id',
      sql<number>`count(*)`.as('n'),
      sql<number>`sum(case when status = 'completed' then 1 else 0 end)`.as('done'),
      sql<number>`sum(case when status = 'completed' then coalesce(duration, 0) else 0 end)`.as('duration'),
      sql<number | null>`avg(case when status = 'completed' then confidence end)`.as('confidence'),
    ])
    .where('project_id', 'in', ids)
    .groupBy('project_id')
    .execute();
  return new Map(
    rows.map((r) => [
      r.project_id!,
      {
        alignments: Number(r.n),
        completed: Number(r.done ?? 0),
        duration: Number(r.duration ?? 0),
        confidence: r.confidence == null ? null : Number(r.confidence),
      },
    ]),
  );
}

export function createProject(
  db: Db,
  userId: string,
  fields: { name: string; description: string },
  nowIso: string,
): Promise<ProjectRow> {
  return db
    .insertInto('projects')
    .values({
      id: randomUUID(),
      user_id: userId,
      ...fields,
      use_adapted_model: 0,
      created_at: nowIso,
      updated_at: nowIso,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateProject(
  db: Db,
  id: string,
  fields: { name?: string; description?: string; use_adapted_model?: boolean },
  nowIso: string,
): Promise<void> {
  const { use_adapted_model, ...text } = fields;
  await db
    .updateTable('projects')
    .set({
      ...text,
      ...(use_adapted_model === undefined ? {} : { use_adapted_model: use_adapted_model ? 1 : 0 }),
      updated_at: nowIso,
    })
    .where('id', '=', id)
    .execute();
}

/** Deletes the project; its alignments stay, unassigned. */
export async function deleteProject(db: Db, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('alignments').set({ project_id: null }).where('project_id', '=', id).execute();
    await trx.deleteFrom('projects').where('id', '=', id).execute();
  });
}

/**
 * Moves the owner's alignments into the project; `null` (nothing moved) when any id is not one of
 * theirs, so another user's alignment is as unknown as a missing one.
 */
export async function moveAlignmentsToProject(
  db: Db,
  userId: string,
  projectId: string,
  ids: string[],
  nowIso: string,
): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const mine = await trx
      .selectFrom('alignments')
      .select('id')
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .execute();
    if (mine.length !== ids.length) return null;
    await trx
      .updateTable('alignments')
      .set({ project_id: projectId, updated_at: nowIso })
      .where('id', 'in', ids)
      .execute();
    await trx.updateTable('projects').set({ updated_at: nowIso }).where('id', '=', projectId).execute();
    return ids.length;
  });
}
