// Commands over an alignment's revisions: read any revision's result, list them, save a new one.
// Revision 1 is the engine's result file; later ones are files under revisions/ with a row each.
import { createHash } from 'node:crypto';
import type { AlignmentResult, ResultRevision, RevisionAuthor } from '@tazamun/contracts/alignment-result';
import { MAX_REVISIONS } from '@tazamun/contracts/revisions';
import type { RevisionCreate, RevisionCreated, RevisionSummary } from '@tazamun/contracts/revisions';
import { findRevisionRow, insertRevisionRow, latestRevisionRow, listRevisionRows } from '../db/revisions.ts';
import { createError } from '../errors.ts';
import { alignmentFile, readResult } from '../jobs/alignment-files.ts';
import type { UserFiles } from '../storage/user-files.ts';
import { applyEdits } from './apply-edits.ts';
import type { Db } from '../db/database.ts';
import type { AlignmentRow } from '../db/schema.ts';

export interface RevisionDeps {
  db: Db;
  files: UserFiles;
  now: () => Date;
}

export async function latestRevisionNumber(db: Db, alignmentId: string): Promise<number> {
  return (await latestRevisionRow(db, alignmentId))?.revision ?? 1;
}

function engineMeta(row: AlignmentRow): ResultRevision {
  return {
    number: 1,
    author: 'engine',
    created_at: row.completed_at ?? row.updated_at,
    hand_corrected: false,
  };
}

/** The result of revision `n` (the latest when absent) with its `revision` block; 404 past the latest. */
export async function readRevision(
  deps: RevisionDeps,
  row: AlignmentRow,
  n?: number,
): Promise<AlignmentResult> {
  if (row.status !== 'completed') throw createError('alignment_not_ready', { status: row.status });
  const saved =
    n === undefined
      ? await latestRevisionRow(deps.db, row.id)
      : n > 1
        ? await findRevisionRow(deps.db, row.id, n)
        : undefined;
  if (n !== undefined && n > 1 && !saved) throw createError('not_found');
  if (!saved) {
    const result = (await readResult(deps.files, row.user_id, row.result_file))!;
    return { ...result, revision: engineMeta(row) };
  }
  const result = (await readResult(deps.files, row.user_id, saved.file))!;
  return {
    ...result,
    revision: {
      number: saved.revision,
      author: saved.author,
      created_at: saved.created_at,
      hand_corrected: true,
    },
  };
}

export async function listRevisions(db: Db, row: AlignmentRow): Promise<RevisionSummary[]> {
  const saved = await listRevisionRows(db, row.id);
  const first = engineMeta(row);
  return [
    { revision: 1, created_at: first.created_at, author: 'engine', changed_words: [] },
    ...saved.map((r) => ({
      revision: r.revision,
      created_at: r.created_at,
      author: r.author,
      changed_words: JSON.parse(r.changed_words) as number[],
    })),
  ];
}

/**
 * Stores `result` as revision base + 1, up to MAX_REVISIONS. The body is written once per content:
 * under the SHA-256 of the result without its `revision` block (the row carries that), so a body saved
 * again (an edit undone, the same save sent twice) shares the file of the first. It is written before
 * the row: when another save on the same base wins the number, this one gets 409 and its file stays
 * for whichever revision holds, or will hold, the same content (it goes with the alignment).
 */
export async function saveRevision(
  deps: RevisionDeps,
  row: AlignmentRow,
  base: number,
  author: Exclude<RevisionAuthor, 'engine'>,
  result: AlignmentResult,
  changed: number[],
): Promise<RevisionCreated> {
  const revision = base + 1;
  if (revision > MAX_REVISIONS) throw createError('revision_limit', { max: MAX_REVISIONS });
  const createdAt = deps.now().toISOString();
  const { revision: _engineMeta, ...body } = result;
  const bytes = Buffer.from(JSON.stringify(body));
  const hash = createHash('sha256').update(bytes).digest('hex');
  const file = alignmentFile(row.id, `revisions/${hash}.json`);
  const key = deps.files.key(row.user_id, file);
  if (!(await deps.files.store.stat(key)))
    await deps.files.store.put(key, bytes, { contentType: 'application/json' });
  const won = await insertRevisionRow(deps.db, {
    alignment_id: row.id,
    revision,
    author,
    changed_words: JSON.stringify(changed),
    file,
    created_at: createdAt,
  });
  if (!won) throw createError('revision_conflict', { latest: await latestRevisionNumber(deps.db, row.id) });
  const stored: AlignmentResult = {
    ...body,
    revision: { number: revision, author, created_at: createdAt, hand_corrected: true },
  };
  return { revision, created_at: createdAt, author, changed_words: changed, result: stored };
}

/**
 * A user's save: edits on the latest revision, checked, stored as the next one. A save that changes
 * nothing makes no revision: `created` is false and the answer is the latest revision as it is.
 */
export async function createRevision(
  deps: RevisionDeps,
  row: AlignmentRow,
  body: RevisionCreate,
): Promise<{ created: boolean; revision: RevisionCreated }> {
  const latest = await latestRevisionNumber(deps.db, row.id);
  if (body.base_revision !== latest) throw createError('revision_conflict', { latest });
  const base = await readRevision(deps, row, latest);
  const { result, changed } = applyEdits(base, body);
  if (changed.length === 0) {
    const meta = base.revision!;
    const summary = (await listRevisions(deps.db, row)).find((r) => r.revision === meta.number);
    return {
      created: false,
      revision: {
        revision: meta.number,
        created_at: meta.created_at,
        author: meta.author,
        changed_words: summary?.changed_words ?? [],
        result: base,
      },
    };
  }
  return { created: true, revision: await saveRevision(deps, row, latest, 'user', result, changed) };
}
