// The video job: renders the karaoke MP4 of a completed alignment into the alignment's folder, so it
// can be downloaded again later and disappears with the alignment.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { moveIntoStore, withLocalFile } from '../storage/local-copy.ts';
import type { UserFiles } from '../storage/user-files.ts';
import { renderKaraokeVideo } from '../media/render-video.ts';
import { alignmentFile, readResult } from './alignment-files.ts';
import { JobAborted, JobFailure } from './job-queue.ts';
import { isTransientWriteError } from '../reliability/unavailable.ts';
import type { JobContext, JobHandler } from './job-queue.ts';
import { findAlignment } from '../db/alignments.ts';
import type { Db } from '../db/database.ts';
import {
  cancelVideo,
  completeVideo,
  failVideo,
  findVideo,
  requeueVideo,
  setVideoProgress,
  videoOptions,
} from '../db/videos.ts';
import type { JobRow } from '../db/schema.ts';

export const videoFileName = (videoId: string): string => `video-${videoId}.mp4`;

export class VideoJobHandler implements JobHandler {
  constructor(
    private readonly db: Db,
    private readonly files: UserFiles,
    private readonly fontsDir: string,
    private readonly now: () => Date,
  ) {}

  async run(job: JobRow, ctx: JobContext): Promise<void> {
    const video = await findVideo(this.db, job.video_id!);
    const row = job.alignment_id ? await findAlignment(this.db, job.alignment_id) : undefined;
    if (!video || !row) return;
    const t0 = Date.now();
    await setVideoProgress(this.db, video.id, 1, 'processing');
    await ctx.progress(null, 1);
    const result = await readResult(this.files, row.user_id, row.result_file);
    if (!result) throw new JobFailure('video_failed', {}, { refund: false });
    // ffmpeg writes into a private temp folder; the finished MP4 then moves into the store.
    await mkdir(this.files.tmpDir, { recursive: true });
    const workDir = await mkdtemp(join(this.files.tmpDir, 'video-'));
    const output = videoFileName(video.id);
    const rel = alignmentFile(row.id, output);
    let last = 0;
    let progressWrites: Promise<unknown> = Promise.resolve();
    let size: number;
    try {
      await withLocalFile(
        this.files.store,
        this.files.key(row.user_id, row.audio_file!),
        this.files.tmpDir,
        (audioPath) =>
          renderKaraokeVideo({
            result,
            audioPath,
            workDir,
            output,
            options: videoOptions(video),
            fontsDir: this.fontsDir,
            signal: ctx.signal,
            onProgress: (f) => {
              const pct = Math.max(1, Math.min(99, Math.round(f * 100)));
              if (pct - last < 5) return;
              last = pct;
              // one write after the other; a failed one (a full disk) is dropped, not left unhandled:
              // the final write after the render decides whether the job can be recorded
              progressWrites = progressWrites
                .then(() => setVideoProgress(this.db, video.id, pct))
                .then(() => ctx.progress(null, pct))
                .catch(() => undefined);
            },
          }),
      );
      if (ctx.signal.aborted) throw new JobAborted(ctx.signal.reason);
      // rendered: the MP4 waits in the work folder until the store takes it
      size = (
        await ctx.persist('the video file', () =>
          moveIntoStore(this.files.store, this.files.key(row.user_id, rel), join(workDir, output), {
            contentType: 'video/mp4',
            keepOnFailure: true,
          }),
        )
      ).size;
    } catch (err) {
      // an abort, or a full disk or a store away while rendering: the runner hands the job back
      if (ctx.signal.aborted || isTransientWriteError(err)) throw err;
      throw new JobFailure('video_failed', { reason: (err as Error).message }, { refund: false });
    } finally {
      await progressWrites;
      await rm(workDir, { recursive: true, force: true });
    }
    const renderTime = (Date.now() - t0) / 1000;
    await ctx.persist('the completed video', () =>
      completeVideo(this.db, video.id, {
        file: rel,
        fileSize: size,
        renderTime,
        completedAt: this.now().toISOString(),
      }),
    );
  }

  async failed(job: JobRow, failure: JobFailure): Promise<void> {
    await failVideo(this.db, job.video_id!, failure.code);
  }

  async cancelled(job: JobRow): Promise<void> {
    await cancelVideo(this.db, job.video_id!);
  }

  async requeued(job: JobRow): Promise<void> {
    await requeueVideo(this.db, job.video_id!);
  }
}
