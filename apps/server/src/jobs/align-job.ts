// The alignment job: the spec's five steps around one engine task on the engine host, the result file
// and figures written at the end, and the quota unit given back when a failure is not the user's. An
// engine fault is retried once by the runner; what the user's input caused is neither refunded nor retried.
import type { EngineHost, EngineProgress } from '@tazamun/aligner/host';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { STEP_PROGRESS, alignmentProgress } from '@tazamun/contracts/alignments';
import type { ProcessingStep } from '@tazamun/contracts/alignments';
import { parseStoredOptions } from '@tazamun/contracts/alignment-options';
import { withLocalFile } from '../storage/local-copy.ts';
import type { UserFiles } from '../storage/user-files.ts';
import { alignmentFile, readUserText } from './alignment-files.ts';
import {
  completeAlignment,
  findAlignment,
  requeueAlignment,
  setAlignmentModel,
  setAlignmentStep,
} from '../db/alignments.ts';
import { findModel } from '../db/models.ts';
import { localModelDir } from '../storage/model-files.ts';
import { lexiconFor } from '../db/lexicon.ts';
import { cancelAlignment, failAlignment } from '../commands/settle-alignment.ts';
import { resultOrThrow } from './engine-outcome.ts';
import { JobAborted, JobFailure } from './job-queue.ts';
import type { JobContext, JobHandler } from './job-queue.ts';
import type { Db } from '../db/database.ts';
import type { AlignmentRow, JobRow } from '../db/schema.ts';

/** Engine progress as the API's percentage (contracts' STEP_PROGRESS); steps under 2 points apart are not written. */
function progressWriter(write: (step: ProcessingStep, percent: number) => void) {
  let last = -Infinity;
  return (p: EngineProgress): void => {
    const step = p.stage === 'analysis' ? 'analysis' : 'alignment';
    const percent = step === 'analysis' ? STEP_PROGRESS.analysis : alignmentProgress(p.done);
    if (step === 'alignment' && last >= STEP_PROGRESS.alignment && percent - last < 2) return;
    last = percent;
    write(step, percent);
  };
}

/**
 * The local folder of the adapted model an alignment was given (the project's, chosen at upload), or
 * undefined: none was chosen, or it is gone (deleted while the upload waited), in which case the row
 * forgets it and the language's own model aligns, as the result's engine.model will say.
 */
export async function adaptedModelFor(
  db: Db,
  files: UserFiles,
  row: AlignmentRow,
  nowIso: string,
): Promise<string | undefined> {
  if (!row.model_id) return undefined;
  const model = await findModel(db, row.model_id);
  const dir = model?.status === 'completed' ? await localModelDir(files, row.user_id, model.id) : null;
  if (dir) return dir;
  await setAlignmentModel(db, row.id, null, nowIso);
  return undefined;
}

export class AlignJobHandler implements JobHandler {
  constructor(
    private readonly db: Db,
    private readonly files: UserFiles,
    private readonly engine: EngineHost,
    private readonly now: () => Date,
  ) {}

  private async setStep(id: string, step: ProcessingStep, ctx: JobContext, percent = STEP_PROGRESS[step]) {
    await setAlignmentStep(this.db, id, step, percent, this.now().toISOString());
    await ctx.progress(step, percent);
  }

  async run(job: JobRow, ctx: JobContext): Promise<void> {
    const row = job.alignment_id ? await findAlignment(this.db, job.alignment_id) : undefined;
    if (!row) return; // deleted while queued: nothing left to do
    await this.setStep(row.id, 'preparation', ctx);
    const options = parseStoredOptions(row.options);
    const text = await readUserText(this.files, row.user_id, row.text_file!);
    const lexicon = await lexiconFor(this.db, row.user_id, row.language);

    await this.setStep(row.id, 'upload', ctx);
    const audioKey = this.files.key(row.user_id, row.audio_file!);
    const size = (await this.files.store.stat(audioKey))?.size ?? -1;
    if (size !== row.file_size) throw new JobFailure('upload_failed', {}, { refund: true });

    // The host's progress arrives as events; each write is chained after the previous one (an older
    // percentage never lands last) and a failed write (a full disk) is caught here: the job goes on,
    // and the finalisation write below, which must succeed, decides whether the database is back.
    let progressWrites = Promise.resolve();
    const onProgress = progressWriter((step, percent) => {
      progressWrites = progressWrites
        .then(() => this.setStep(row.id, step, ctx, percent))
        .catch(() => undefined);
    });
    // The project's adapted model, when the upload was given one: a local folder (fetched from S3 once)
    let model = await adaptedModelFor(this.db, this.files, row, this.now().toISOString());
    // The engine reads a path: the stored file itself on the local disk, a temp copy from S3.
    let outcome = await withLocalFile(this.files.store, audioKey, this.files.tmpDir, (audio) =>
      this.engine.run(
        { kind: 'align', audio, text, language: row.language, options, lexicon, model },
        { signal: ctx.signal, onProgress },
      ),
    );
    if (model && outcome.type === 'input_error' && outcome.code === 'model_not_installed') {
      // the model's folder went while the engine read it (deleted meanwhile): the language's own model
      await setAlignmentModel(this.db, row.id, null, this.now().toISOString());
      model = undefined;
      outcome = await withLocalFile(this.files.store, audioKey, this.files.tmpDir, (audio) =>
        this.engine.run(
          { kind: 'align', audio, text, language: row.language, options, lexicon },
          { signal: ctx.signal, onProgress },
        ),
      );
    }
    await progressWrites;
    const json = resultOrThrow(outcome, 'align', ctx.signal);
    const result = JSON.parse(json) as AlignmentResult;
    // Deleted while the engine ran: writing the result would recreate the alignment's folder.
    if (ctx.signal.aborted) throw new JobAborted(ctx.signal.reason);
    // The work is done. What is left is recording it: held in memory and written once the database and
    // the disk take it (ctx.persist), never thrown away for an outage or a full disk.
    await this.setStep(row.id, 'finalisation', ctx).catch(() => undefined);
    const rel = alignmentFile(row.id, 'result.json');
    // whole or nothing: a reader never sees half a result
    await ctx.persist('the result file', () =>
      this.files.store.put(this.files.key(row.user_id, rel), Buffer.from(json), {
        contentType: 'application/json',
      }),
    );
    const nowIso = this.now().toISOString();
    await ctx.persist('the completed alignment', () =>
      completeAlignment(this.db, row.id, rel, result, nowIso),
    );
    await ctx.progress('finalisation', 100);
  }

  async failed(job: JobRow, failure: JobFailure): Promise<void> {
    if (!job.alignment_id) return;
    await failAlignment(
      this.db,
      job.alignment_id,
      { code: failure.code, params: failure.params, refund: failure.options.refund },
      this.now().toISOString(),
    );
  }

  async cancelled(job: JobRow): Promise<void> {
    if (job.alignment_id) await cancelAlignment(this.db, job.alignment_id, this.now().toISOString());
  }

  async requeued(job: JobRow): Promise<void> {
    if (job.alignment_id) await requeueAlignment(this.db, job.alignment_id, this.now().toISOString());
  }
}
