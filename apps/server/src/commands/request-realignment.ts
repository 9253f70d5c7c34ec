// Queues the re-alignment of a stretch: checks the window, writes the request and its job together.
import { randomUUID } from 'node:crypto';
import { errorMessage } from '@tazamun/contracts/errors';
import { checkJobBounds } from '@tazamun/contracts/job-bounds';
import { MAX_REALIGN_SECONDS, MAX_REVISIONS } from '@tazamun/contracts/revisions';
import type { RealignRequest } from '@tazamun/contracts/revisions';
import { activeRealignment, insertRealignment } from '../db/revisions.ts';
import { createError } from '../errors.ts';
import { cleanTranscriptText } from '../media/text-decode.ts';
import { assertFreeJobRoom } from '../jobs/fair-share.ts';
import { jobTimeoutMs } from '../jobs/job-config.ts';
import type { JobConfig } from '../jobs/job-config.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { readRevision } from '../revisions/revision-store.ts';
import type { RevisionDeps } from '../revisions/revision-store.ts';
import { findStretch } from '../revisions/splice-stretch.ts';
import type { AlignmentRow, RealignmentRow } from '../db/schema.ts';

// milliseconds for messages; a number too large to scale (1e306 s) is shown as it is, never "Infinity"
const r3 = (x: number): number => (Number.isFinite(x * 1000) ? Math.round(x * 1000) / 1000 : x);
/** Shorter than this, a window holds no word the engine could place. */
const MIN_WINDOW_SECONDS = 0.05;

export async function requestRealignment(
  deps: RevisionDeps & { queue: JobQueue; jobConfig: JobConfig },
  row: AlignmentRow,
  body: RealignRequest,
): Promise<RealignmentRow> {
  const latest = await readRevision(deps, row);
  // its result would be one revision too many: refused now rather than by the job
  if (latest.revision!.number >= MAX_REVISIONS) throw createError('revision_limit', { max: MAX_REVISIONS });
  const duration = latest.audio.duration;
  const span = { start: r3(body.start), end: r3(body.end), duration: r3(duration), max: MAX_REALIGN_SECONDS };
  if (body.end <= body.start || body.end - body.start > MAX_REALIGN_SECONDS || body.start >= duration)
    throw createError('realign_too_long', span);
  // controls other than line ends become spaces, as in an upload's transcript (NUL never gets here:
  // JSON bodies holding it are refused)
  const cleaned = body.text === undefined ? '' : cleanTranscriptText(body.text).trim();
  const text = cleaned ? cleaned : null;
  const stretch = findStretch(latest, body.start, Math.min(body.end, duration));
  // (a stretch squeezed to nothing between two words corrected by hand is empty too)
  if ((stretch.from === stretch.to && text === null) || stretch.end - stretch.start < MIN_WINDOW_SECONDS)
    throw createError('realign_empty', { start: span.start, end: span.end });
  // a corrected text the stretch's audio cannot hold fails in the engine: refused here, as an upload is
  if (text !== null) {
    const v = checkJobBounds({ durationSeconds: stretch.end - stretch.start, text });
    if (v) throw createError(v.code, v.params, { text: [errorMessage(v.code, 'en', v.params)] });
  }
  // One at a time per alignment: two stretches re-aligned at once would race for the next revision.
  if (await activeRealignment(deps.db, row.id)) throw createError('realign_busy');
  // re-alignments use no quota unit: a user keeps a few queued or running at most (jobs/fair-share.ts)
  await assertFreeJobRoom(deps.db, row.user_id, 'realign');

  const nowIso = deps.now().toISOString();
  const request: RealignmentRow = {
    id: randomUUID(),
    alignment_id: row.id,
    job_id: '',
    status: 'queued',
    start_time: body.start,
    end_time: Math.min(body.end, duration),
    text,
    base_revision: latest.revision!.number,
    whole: 0,
    revision: null,
    error_code: null,
    error_params: null,
    created_at: nowIso,
    updated_at: nowIso,
    completed_at: null,
  };
  await deps.db.transaction().execute(async (trx) => {
    request.job_id = await deps.queue.enqueue(trx, {
      kind: 'realign',
      userId: row.user_id,
      alignmentId: row.id,
      timeoutMs: jobTimeoutMs(deps.jobConfig, (stretch.end - stretch.start) * 4),
    });
    await insertRealignment(trx, request);
  });
  deps.queue.wake();
  return request;
}
