import type { Db } from './database.ts';
import type { RealignmentRow, RealignmentsTable, RevisionRow } from './schema.ts';
// Revisions and re-alignment requests of an alignment. Callers have already checked the alignment
// belongs to the user (findOwnedAlignment), so these queries are keyed by alignment id alone.

export function listRevisionRows(db: Db, alignmentId: string): Promise<RevisionRow[]> {
  return db
    .selectFrom('alignment_revisions')
    .selectAll()
    .where('alignment_id', '=', alignmentId)
    .orderBy('revision')
    .execute();
}

export function findRevisionRow(db: Db, alignmentId: string, revision: number) {
  return db
    .selectFrom('alignment_revisions')
    .selectAll()
    .where('alignment_id', '=', alignmentId)
    .where('revision', '=', revision)
    .executeTakeFirst();
}

/** The latest saved revision's row; undefined while the engine's result (revision 1) is the latest. */
export function latestRevisionRow(db: Db, alignmentId: string): Promise<RevisionRow | undefined> {
  return db
    .selectFrom('alignment_revisions')
    .selectAll()
    .where('alignment_id', '=', alignmentId)
    .orderBy('revision', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Inserts the revision; false when that number is already taken (another save on the same base won).
 * The primary key (alignment_id, revision) decides, on SQLite and PostgreSQL alike.
 */
export async function insertRevisionRow(db: Db, row: RevisionRow): Promise<boolean> {
  try {
    await db.insertInto('alignment_revisions').values(row).execute();
    return true;
  } catch (err) {
    const taken = await findRevisionRow(db, row.alignment_id, row.revision);
    if (taken) return false;
    throw err;
  }
}

export async function insertRealignment(db: Db, row: RealignmentRow): Promise<void> {
  await db.insertInto('realignments').values(row).execute();
}

export function activeRealignment(db: Db, alignmentId: string): Promise<RealignmentRow | undefined> {
  return db
    .selectFrom('realignments')
    .selectAll()
    .where('alignment_id', '=', alignmentId)
    .where('status', 'in', ['queued', 'processing'])
    .executeTakeFirst();
}

export function latestRealignment(db: Db, alignmentId: string): Promise<RealignmentRow | undefined> {
  return (
    db
      .selectFrom('realignments')
      .selectAll()
      .where('alignment_id', '=', alignmentId)
      // One runs at a time and each starts from the latest revision, so a later request never has a
      // lower base; the base decides even when two requests share a timestamp (a hand-moved clock).
      .orderBy('base_revision', 'desc')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()
  );
}

export function realignmentOfJob(db: Db, jobId: string): Promise<RealignmentRow | undefined> {
  return db.selectFrom('realignments').selectAll().where('job_id', '=', jobId).executeTakeFirst();
}

export async function updateRealignment(
  db: Db,
  id: string,
  set: Partial<Omit<RealignmentsTable, 'id' | 'alignment_id' | 'job_id'>>,
  onlyIfStatus?: RealignmentsTable['status'][],
): Promise<void> {
  let q = db.updateTable('realignments').set(set).where('id', '=', id);
  if (onlyIfStatus) q = q.where('status', 'in', onlyIfStatus);
  await q.execute();
}
