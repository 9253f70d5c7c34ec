// Deleting an alignment: its running or queued jobs are cancelled through the queue (which gives back
// the quota unit of one that never ran), then the row goes (its jobs, shares and revisions with it,
// by cascade) and last its files, so a failure never leaves a row whose files are gone.
import type { FastifyInstance } from 'fastify';
import { activeJobIds, deleteAlignmentRow } from '../db/alignments.ts';
import type { AlignmentRow } from '../db/schema.ts';
import { removeAlignmentFiles } from '../jobs/alignment-files.ts';

export async function deleteAlignment(app: FastifyInstance, row: AlignmentRow): Promise<void> {
  const db = app.deps.db;
  for (const id of await activeJobIds(db, row.id)) await app.jobs.queue.cancel(id);
  await deleteAlignmentRow(db, row.id);
  await removeAlignmentFiles(app.deps.files, row.user_id, row.id);
}
