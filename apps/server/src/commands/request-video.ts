// A karaoke render asked for: one video per alignment, so the previous renders' rows go and the new one
// is queued with its job in one transaction; the previous files are removed once that has committed.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { VideoRequest } from '@tazamun/contracts/exports';
import type { AlignmentRow } from '../db/schema.ts';
import { deleteVideos, insertVideo, listVideos } from '../db/videos.ts';
import { jobTimeoutMs } from '../jobs/job-config.ts';

/** Queues a render of the alignment with these options; returns the new video's id. */
export async function requestVideo(
  app: FastifyInstance,
  row: AlignmentRow,
  options: VideoRequest,
): Promise<string> {
  const { deps } = app;
  const old = await listVideos(deps.db, row.id);
  const id = randomUUID();
  const nowIso = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    await deleteVideos(trx, row.id);
    await insertVideo(trx, { id, alignmentId: row.id, options: JSON.stringify(options), nowIso });
    await app.jobs.queue.enqueue(trx, {
      kind: 'video',
      userId: row.user_id,
      alignmentId: row.id,
      videoId: id,
      // a render takes about four times the recording's length on one core
      timeoutMs: jobTimeoutMs(app.jobs.config, (row.duration ?? 60) * 4),
    });
  });
  for (const v of old) if (v.file) await deps.files.store.delete(deps.files.key(row.user_id, v.file));
  app.jobs.queue.wake();
  return id;
}
