// The alignment job: the spec's five steps around one engine run on a worker thread, the result file
// and figures written at the end, and the quota unit given back when a failure is not the user's. An
// engine fault is retried once by the runner; what the user's input caused is neither refunded nor retried.
import { sql } from 'kysely';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import type { AlignmentOptions, ProcessingStep } from '@tazamun/contracts/alignments';
import { ERRORS } from '@tazamun/contracts/errors';
import type { ErrorCode } from '@tazamun/contracts/errors';
import { withLocalFile } from '../storage/local-copy.ts';
import type { UserFiles } from '../storage/user-files.ts';
import { alignmentFile, readUserText } from './alignment-files.ts';
import { lexiconFor } from '../db/lexicon.ts';
import { reasonOf } from './error-text.ts';
import { JobAborted, JobFailure } from './job-queue.ts';
import type { JobContext, JobHandler } from './job-queue.ts';
import type { AlignThreadPool } from './thread-pool.ts';
import type { Db } from '../db/database.ts';
import type { JobRow } from '../db/schema.ts';

/** The thread's error rebuilt here, with the thread's stack, for the log. */
function threadError(o: { message: string; stack?: string | null }): Error {
  const err = new Error(o.message);
  if (o.stack) err.stack = o.stack;
  return err;
}

const AUDIO_REASONS: Record<string, string> = {
  not_found: 'the stored audio file is missing',
  empty: 'the audio holds no samples',
  not_audio: 'the file has no readable audio stream',
  decode_failed: 'the audio could not be decoded (damaged or truncated file)',
  too_short: 'the audio is too short (less than 0.1 s)',
};

export class AlignJobHandler implements JobHandler {
  constructor(
    private readonly db: Db,
    private readonly files: UserFiles,
    private readonly pool: AlignThreadPool,
    private readonly now: () => Date,
  ) {}

  private async setStep(id: string, step: ProcessingStep, progress: number, ctx: JobContext) {
    await this.db
      .updateTable('alignments')
      .set({ status: 'processing', step, progress, updated_at: this.now().toISOString() })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'processing'])
      .execute();
    await ctx.progress(step, progress);
  }

  async run(job: JobRow, ctx: JobContext): Promise<void> {
    const row = await this.db
      .selectFrom('alignments')
      .selectAll()
      .where('id', '=', job.alignment_id)
      .executeTakeFirst();
    if (!row) return; // deleted while queued: nothing left to do
    await this.setStep(row.id, 'preparation', 5, ctx);
    const options = JSON.parse(row.options ?? '{}') as AlignmentOptions;
    const text = await readUserText(this.files, row.user_id, row.text_file!);
    const lexicon = await lexiconFor(this.db, row.user_id, row.language);

    await this.setStep(row.id, 'upload', 15, ctx);
    const audioKey = this.files.key(row.user_id, row.audio_file!);
    const size = (await this.files.store.stat(audioKey))?.size ?? -1;
    if (size !== row.file_size) throw new JobFailure('upload_failed', {}, { refund: true });

    // The thread's progress arrives as events; each write is chained after the previous one (an older
    // percentage never lands last) and a failed write (a full disk) is caught here: the job goes on,
    // and the finalisation write below, which must succeed, decides whether the database is back.
    let progressWrites = Promise.resolve();
    const onProgress = (m: { step: ProcessingStep; percent: number }): void => {
      progressWrites = progressWrites
        .then(() => this.setStep(row.id, m.step, m.percent, ctx))
        .catch(() => undefined);
    };
    // The engine reads a path: the stored file itself on the local disk, a temp copy from S3.
    const outcome = await withLocalFile(this.files.store, audioKey, this.files.tmpDir, (audioPath) =>
      this.pool.run({ audioPath, text, language: row.language, options, lexicon }, ctx.signal, onProgress),
    );
    await progressWrites;
    switch (outcome.type) {
      case 'aborted':
        throw new JobAborted(ctx.signal.reason);
      case 'crash':
      case 'engine_fault':
        // not the user's doing: the unit comes back, and the runner retries once (the pool retired
        // the thread, so the retry runs on a fresh one)
        throw new JobFailure(
          'engine_failed',
          { reason: reasonOf(outcome.message) },
          { refund: true, retry: true, cause: threadError(outcome) },
        );
      case 'input_error': {
        // the user's transcript or options: no refund, no retry (it would fail the same way)
        const known = outcome.code !== null && outcome.code in ERRORS;
        throw new JobFailure(
          known ? (outcome.code as ErrorCode) : 'alignment_input_rejected',
          known ? outcome.params : { reason: reasonOf(outcome.message) },
          { refund: false },
        );
      }
      case 'audio_error':
        if (outcome.code === 'silent') throw new JobFailure('audio_silent', {}, { refund: false });
        throw new JobFailure(
          'audio_unusable',
          { reason: AUDIO_REASONS[outcome.code] ?? outcome.message },
          { refund: false },
        );
    }

    const result = JSON.parse(outcome.json) as AlignmentResult;
    // Deleted while the engine ran: writing the result would recreate the alignment's folder.
    if (ctx.signal.aborted) throw new JobAborted(ctx.signal.reason);
    // The work is done. What is left is recording it: held in memory and written once the database and
    // the disk take it (ctx.persist), never thrown away for an outage or a full disk.
    await this.setStep(row.id, 'finalisation', 92, ctx).catch(() => undefined);
    const rel = alignmentFile(row.id, 'result.json');
    // whole or nothing: a reader never sees half a result
    await ctx.persist('the result file', () =>
      this.files.store.put(this.files.key(row.user_id, rel), Buffer.from(outcome.json), {
        contentType: 'application/json',
      }),
    );
    const m = result.metrics;
    const nowIso = this.now().toISOString();
    await ctx.persist('the completed alignment', () =>
      this.db
        .updateTable('alignments')
        .set({
          status: 'completed',
          step: 'finalisation',
          progress: 100,
          result_file: rel,
          processed_text: result.text.processed,
          engine: `${result.engine.backend}/${result.engine.model}`,
          duration: result.audio.duration,
          confidence: m.mean_confidence,
          wer: m.wer,
          cer: m.cer,
          words: m.words_total,
          coverage: m.coverage,
          processing_time: m.processing_time,
          verdict: result.quality.verdict,
          detected_language: result.detected_language,
          error_code: null,
          error_params: null,
          updated_at: nowIso,
          completed_at: nowIso,
        })
        .where('id', '=', row.id)
        .execute(),
    );
    await ctx.progress('finalisation', 100);
  }

  async failed(job: JobRow, failure: JobFailure): Promise<void> {
    const nowIso = this.now().toISOString();
    await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('alignments')
        .select(['user_id', 'quota_day', 'quota_refunded'])
        .where('id', '=', job.alignment_id)
        .executeTakeFirst();
      if (!row) return;
      const refund = failure.options.refund && row.quota_day !== null && !row.quota_refunded;
      if (refund) await refundQuota(trx, row.user_id, row.quota_day!);
      await trx
        .updateTable('alignments')
        .set({
          status: 'failed',
          error_code: failure.code,
          error_params: JSON.stringify(failure.params),
          quota_refunded: refund ? 1 : (row.quota_refunded ?? 0),
          updated_at: nowIso,
        })
        .where('id', '=', job.alignment_id)
        .execute();
    });
  }

  /** Cancelled before it ran: the unit comes back. Cancelled while running: the work was done. */
  async cancelled(job: JobRow): Promise<void> {
    const nowIso = this.now().toISOString();
    await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('alignments')
        .select(['user_id', 'quota_day', 'quota_refunded', 'status'])
        .where('id', '=', job.alignment_id)
        .executeTakeFirst();
      if (!row) return;
      const refund = row.status === 'queued' && row.quota_day !== null && !row.quota_refunded;
      if (refund) await refundQuota(trx, row.user_id, row.quota_day!);
      await trx
        .updateTable('alignments')
        .set({
          status: 'cancelled',
          quota_refunded: refund ? 1 : (row.quota_refunded ?? 0),
          updated_at: nowIso,
        })
        .where('id', '=', job.alignment_id)
        .execute();
    });
  }

  async requeued(job: JobRow): Promise<void> {
    await this.db
      .updateTable('alignments')
      .set({ status: 'queued', step: null, progress: 0, updated_at: this.now().toISOString() })
      .where('id', '=', job.alignment_id)
      .where('status', 'in', ['processing', 'queued'])
      .execute();
  }
}

/** The unit goes back only while its day is still the user's quota day (midnight UTC resets anyway). */
export async function refundQuota(db: Db, userId: string, day: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ used_today: sql<number>`case when used_today > 0 then used_today - 1 else 0 end` })
    .where('id', '=', userId)
    .where('quota_day', '=', day)
    .execute();
}
