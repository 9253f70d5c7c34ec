// The videos repository: the karaoke renders of an alignment (one at a time; a new render replaces the
// last, commands/request-video.ts), read by the export routes and written by the video job.
import { VideoRequest } from '@tazamun/contracts/exports';
import type { Db } from './database.ts';
import type { VideoRow } from './schema.ts';

/** A render's stored options read back through their schema, not cast. */
export function videoOptions(row: Pick<VideoRow, 'options'>): VideoRequest {
  return VideoRequest.parse(JSON.parse(row.options));
}

export function findVideo(db: Db, id: string): Promise<VideoRow | undefined> {
  return db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The alignment's latest render, whatever its state. */
export function latestVideo(db: Db, alignmentId: string): Promise<VideoRow | undefined> {
  return db
    .selectFrom('videos')
    .selectAll()
    .where('alignment_id', '=', alignmentId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export function listVideos(db: Db, alignmentId: string): Promise<VideoRow[]> {
  return db.selectFrom('videos').selectAll().where('alignment_id', '=', alignmentId).execute();
}

/** Removes the alignment's renders (their files are the caller's). */
export async function deleteVideos(db: Db, alignmentId: string): Promise<void> {
  await db.deleteFrom('videos').where('alignment_id', '=', alignmentId).execute();
}

/** A render asked for: queued, with the options it is made with. */
export async function insertVideo(
  db: Db,
  video: { id: string; alignmentId: string; options: string; nowIso: string },
): Promise<void> {
  await db
    .insertInto('videos')
    .values({
      id: video.id,
      alignment_id: video.alignmentId,
      status: 'queued',
      options: video.options,
      progress: 0,
      file: null,
      file_size: null,
      render_time: null,
      error_code: null,
      created_at: video.nowIso,
      completed_at: null,
    })
    .execute();
}

/** The share of the render done, in percent; `processing` marks it started. */
export async function setVideoProgress(
  db: Db,
  id: string,
  progress: number,
  status?: 'processing',
): Promise<void> {
  await db
    .updateTable('videos')
    .set(status ? { status, progress } : { progress })
    .where('id', '=', id)
    .execute();
}

export async function completeVideo(
  db: Db,
  id: string,
  done: { file: string; fileSize: number; renderTime: number; completedAt: string },
): Promise<void> {
  await db
    .updateTable('videos')
    .set({
      status: 'completed',
      progress: 100,
      file: done.file,
      file_size: done.fileSize,
      render_time: done.renderTime,
      completed_at: done.completedAt,
    })
    .where('id', '=', id)
    .execute();
}

export async function failVideo(db: Db, id: string, errorCode: string): Promise<void> {
  await db
    .updateTable('videos')
    .set({ status: 'failed', error_code: errorCode })
    .where('id', '=', id)
    .execute();
}

export async function cancelVideo(db: Db, id: string): Promise<void> {
  await db.updateTable('videos').set({ status: 'cancelled' }).where('id', '=', id).execute();
}

/** Back to the queue from its start: a job handed back, or an operator's retry (no error kept). */
export async function requeueVideo(db: Db, id: string): Promise<void> {
  await db
    .updateTable('videos')
    .set({ status: 'queued', progress: 0, error_code: null })
    .where('id', '=', id)
    .execute();
}
