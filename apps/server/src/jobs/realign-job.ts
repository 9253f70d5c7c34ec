// The re-alignment of a stretch (kind 'realign'): the engine aligns that window of the audio alone and
// the result replaces the stretch's words in the latest revision, stored as a new revision. The
// alignment itself stays 'completed' throughout; the realignments row carries this job's state.
import type { EngineHost } from '@tazamun/aligner/host';
import { parseStoredOptions } from '@tazamun/contracts/alignment-options';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { findAlignment } from '../db/alignments.ts';
import { lexiconFor } from '../db/lexicon.ts';
import { AppError } from '../errors.ts';
import { realignmentOfJob, updateRealignment } from '../db/revisions.ts';
import { latestRevisionNumber, readRevision, saveRevision } from '../revisions/revision-store.ts';
import { findStretch, spliceStretch, stretchText } from '../revisions/splice-stretch.ts';
import { keepCorrections } from '../revisions/keep-corrections.ts';
import { withLocalFile } from '../storage/local-copy.ts';
import type { UserFiles } from '../storage/user-files.ts';
import { adaptedModelFor } from './align-job.ts';
import { resultOrThrow } from './engine-outcome.ts';
import { JobAborted, JobFailure } from './job-queue.ts';
import type { JobContext, JobHandler } from './job-queue.ts';
import type { Db } from '../db/database.ts';
import type { AlignmentRow, JobRow, RealignmentRow } from '../db/schema.ts';

// Saves that land while the engine runs move the latest revision on; the stretch is spliced again
// onto the newer one, a few times at most.
const SAVE_TRIES = 3;

export class RealignJobHandler implements JobHandler {
  constructor(
    private readonly db: Db,
    private readonly files: UserFiles,
    private readonly engine: EngineHost,
    private readonly now: () => Date,
  ) {}

  async run(job: JobRow, ctx: JobContext): Promise<void> {
    const request = await realignmentOfJob(this.db, job.id);
    const row = job.alignment_id ? await findAlignment(this.db, job.alignment_id) : undefined;
    if (!request || !row) return; // deleted while queued
    await updateRealignment(this.db, request.id, {
      status: 'processing',
      updated_at: this.now().toISOString(),
    });
    await ctx.progress('alignment', 10);
    const deps = { db: this.db, files: this.files, now: this.now };
    if (request.whole === 1) return this.rerun(request, row, ctx);
    const first = await readRevision(deps, row);
    const stretch = findStretch(first, request.start_time, request.end_time);
    const textGiven = request.text !== null;
    const text = textGiven ? request.text!.trim() : stretchText(first, stretch);
    if (!text) throw new JobFailure('realign_empty', { start: request.start_time, end: request.end_time });

    const audioKey = this.files.key(row.user_id, row.audio_file!);
    const options = parseStoredOptions(row.options);
    // the owner's pronunciations as they are now: a stretch is re-aligned with the corrected lexicon
    const lexicon = await lexiconFor(this.db, row.user_id, row.language);
    // the model that aligned the recording (the project's adapted one) aligns its stretches too
    const model = await adaptedModelFor(this.db, this.files, row, this.now().toISOString());
    const outcome = await withLocalFile(this.files.store, audioKey, this.files.tmpDir, (audio) =>
      this.engine.run(
        {
          kind: 'align',
          audio,
          text,
          language: row.language,
          options,
          lexicon,
          model,
          window: { start: stretch.start, end: stretch.end },
        },
        { signal: ctx.signal },
      ),
    );
    const json = resultOrThrow(outcome, 'realign', ctx.signal);
    if (ctx.signal.aborted) throw new JobAborted(ctx.signal.reason);
    const part = JSON.parse(json) as AlignmentResult;

    for (let attempt = 1; ; attempt++) {
      const latest = await latestRevisionNumber(this.db, row.id);
      const base = latest === first.revision!.number ? first : await readRevision(deps, row, latest);
      // The stretch's words are found again by time in the newer revision; their positions may differ.
      const st = latest === first.revision!.number ? stretch : findStretch(base, stretch.start, stretch.end);
      const { result, changed } = spliceStretch(base, st, part, text, textGiven);
      try {
        // the work is done: the revision is kept in memory and written once the database takes it
        const saved = await ctx.persist('the re-aligned revision', () =>
          saveRevision(deps, row, latest, 'realign', result, changed),
        );
        const nowIso = this.now().toISOString();
        await ctx.persist('the completed re-alignment', () =>
          updateRealignment(this.db, request.id, {
            status: 'completed',
            revision: saved.revision,
            updated_at: nowIso,
            completed_at: nowIso,
          }),
        );
        break;
      } catch (err) {
        // saves reached the limit while the engine ran: the stretch has nowhere to go
        if (err instanceof AppError && err.code === 'revision_limit')
          throw new JobFailure('revision_limit', err.params, { refund: false });
        if (!(err instanceof AppError && err.code === 'revision_conflict') || attempt >= SAVE_TRIES)
          throw err;
      }
    }
    await ctx.progress('finalisation', 100);
  }

  /**
   * The whole recording aligned again (a project re-run with its adapted model): the latest revision's
   * transcript, the alignment's model, every word a person corrected kept as they placed it; stored as
   * the next revision.
   */
  private async rerun(request: RealignmentRow, row: AlignmentRow, ctx: JobContext): Promise<void> {
    const deps = { db: this.db, files: this.files, now: this.now };
    const first = await readRevision(deps, row);
    const audioKey = this.files.key(row.user_id, row.audio_file!);
    const lexicon = await lexiconFor(this.db, row.user_id, row.language);
    const model = await adaptedModelFor(this.db, this.files, row, this.now().toISOString());
    const outcome = await withLocalFile(this.files.store, audioKey, this.files.tmpDir, (audio) =>
      this.engine.run(
        {
          kind: 'align',
          audio,
          text: first.text.original,
          language: row.language,
          options: parseStoredOptions(row.options),
          lexicon,
          model,
        },
        { signal: ctx.signal },
      ),
    );
    const json = resultOrThrow(outcome, 'realign', ctx.signal);
    if (ctx.signal.aborted) throw new JobAborted(ctx.signal.reason);
    const fresh = JSON.parse(json) as AlignmentResult;
    for (let attempt = 1; ; attempt++) {
      const latest = await latestRevisionNumber(this.db, row.id);
      const base = latest === first.revision!.number ? first : await readRevision(deps, row, latest);
      const merged = keepCorrections(base, fresh);
      // the transcript was changed meanwhile (a stretch re-aligned with new text): nothing to map onto
      if (!merged)
        throw new JobFailure('realign_failed', { reason: 'the transcript changed' }, { refund: false });
      try {
        const saved = await ctx.persist('the re-run revision', () =>
          saveRevision(deps, row, latest, 'realign', merged.result, merged.changed),
        );
        const nowIso = this.now().toISOString();
        await ctx.persist('the completed re-run', () =>
          updateRealignment(this.db, request.id, {
            status: 'completed',
            revision: saved.revision,
            updated_at: nowIso,
            completed_at: nowIso,
          }),
        );
        break;
      } catch (err) {
        if (err instanceof AppError && err.code === 'revision_limit')
          throw new JobFailure('revision_limit', err.params, { refund: false });
        if (!(err instanceof AppError && err.code === 'revision_conflict') || attempt >= SAVE_TRIES)
          throw err;
      }
    }
    await ctx.progress('finalisation', 100);
  }

  async failed(job: JobRow, failure: JobFailure): Promise<void> {
    const request = await realignmentOfJob(this.db, job.id);
    if (!request) return;
    await updateRealignment(this.db, request.id, {
      status: 'failed',
      error_code: failure.code,
      error_params: JSON.stringify(failure.params),
      updated_at: this.now().toISOString(),
    });
  }

  async cancelled(job: JobRow): Promise<void> {
    const request = await realignmentOfJob(this.db, job.id);
    if (!request) return;
    await updateRealignment(this.db, request.id, {
      status: 'cancelled',
      updated_at: this.now().toISOString(),
    });
  }

  async requeued(job: JobRow): Promise<void> {
    const request = await realignmentOfJob(this.db, job.id);
    if (!request) return;
    await updateRealignment(this.db, request.id, { status: 'queued', updated_at: this.now().toISOString() }, [
      'processing',
      'queued',
    ]);
  }
}
