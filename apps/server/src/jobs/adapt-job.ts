// The adaptation job (kind 'adapt', ADR 0070): a project's completed recordings of one language become
// the corpus of one engine `adapt` task (MAP re-estimation, Arabic phones of their own), run on an engine
// thread of its own with a heap limit (ADAPT_HEAP_MB) under the job's time limit; the model folder it
// writes moves into the file store and the model row records the engine's manifest. A recording whose
// latest revision a person corrected is ground truth: its placed words are given as fixed words (each
// aligned alone within the times of that revision, weighing twice). No quota unit is at stake.
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { join } from 'node:path';
import type { EngineHost, EngineProgress } from '@tazamun/aligner/host';
import type { AdaptTask, AdaptTaskResult } from '@tazamun/aligner/host';
import { parseStoredOptions } from '@tazamun/contracts/alignment-options';
import { lexiconFor } from '../db/lexicon.ts';
import { adaptationCorpus, findModel, modelBytes, updateModel } from '../db/models.ts';
import { readRevision } from '../revisions/revision-store.ts';
import { LocalFileStore } from '../storage/storage.ts';
import { tempPath } from '../storage/local-copy.ts';
import { removeModelFiles, storeModelDir } from '../storage/model-files.ts';
import type { UserFiles } from '../storage/user-files.ts';
import { adaptResultOrThrow } from './engine-outcome.ts';
import { JobAborted, JobFailure } from './job-queue.ts';
import type { JobContext, JobHandler } from './job-queue.ts';
import type { Db } from '../db/database.ts';
import type { AlignmentRow, JobRow, ModelRow } from '../db/schema.ts';

const MB = 1024 * 1024;

/** The engine's progress as the model's percentage: 2 once started, 97 when the engine is done. */
const percentOf = (p: EngineProgress): number => Math.min(97, 2 + Math.floor(p.done * 95));

export class AdaptJobHandler implements JobHandler {
  constructor(
    private readonly db: Db,
    private readonly files: UserFiles,
    private readonly engine: EngineHost,
    private readonly now: () => Date,
    private readonly limits: { storageBytes: number; heapMb: number },
  ) {}

  private iso(): string {
    return this.now().toISOString();
  }

  async run(job: JobRow, ctx: JobContext): Promise<void> {
    const model = job.model_id ? await findModel(this.db, job.model_id) : undefined;
    if (!model) return; // deleted while queued
    await updateModel(this.db, model.id, { status: 'processing', progress: 1, updated_at: this.iso() }, [
      'queued',
      'processing',
    ]);
    await ctx.progress(null, 1);
    const corpus = await adaptationCorpus(this.db, model.user_id, model.project_id, model.language);
    const work = await tempPath(this.files.tmpDir, '-adapt');
    await mkdir(work, { recursive: true });
    try {
      const items = await this.items(model, corpus, work);
      const lexicon = await lexiconFor(this.db, model.user_id, model.language);
      let last = 1;
      let writes = Promise.resolve();
      const onProgress = (p: EngineProgress): void => {
        const percent = percentOf(p);
        if (percent - last < 2) return;
        last = percent;
        writes = writes
          .then(async () => {
            await updateModel(this.db, model.id, { progress: percent, updated_at: this.iso() }, [
              'processing',
            ]);
            await ctx.progress(null, percent);
          })
          .catch(() => undefined);
      };
      const out = join(work, 'model');
      const task: AdaptTask = { kind: 'adapt', items, language: model.language, out, lexicon };
      const outcome = await this.engine.run(task, {
        signal: ctx.signal,
        onProgress,
        resourceLimits: { maxOldGenerationSizeMb: this.limits.heapMb },
      });
      await writes;
      const result = JSON.parse(adaptResultOrThrow(outcome, ctx.signal)) as AdaptTaskResult;
      if (ctx.signal.aborted) throw new JobAborted(ctx.signal.reason);
      const size = await folderBytes(out);
      const others = await modelBytes(this.db, model.user_id);
      if (others + size > this.limits.storageBytes)
        throw new JobFailure(
          'model_storage_full',
          {
            used: Math.round((others / MB) * 10) / 10,
            limit: Math.round((this.limits.storageBytes / MB) * 10) / 10,
            needed: Math.round((size / MB) * 10) / 10,
          },
          { refund: false },
        );
      // the work is done: the folder waits in the work folder until the store takes it
      const stored = await ctx.persist('the model files', () =>
        storeModelDir(this.files, model.user_id, model.id, out),
      );
      const nowIso = this.iso();
      const recorded = await ctx.persist('the completed model', () =>
        updateModel(
          this.db,
          model.id,
          {
            status: 'completed',
            progress: 100,
            name: result.manifest.id,
            manifest: JSON.stringify({ ...result.manifest, skipped: result.skipped.length }),
            size_bytes: stored,
            completed_at: nowIso,
            updated_at: nowIso,
          },
          ['processing', 'queued'],
        ),
      );
      // deleted while the engine ran: its files must not outlive it
      if (!recorded) await removeModelFiles(this.files, model.user_id, model.id);
      await ctx.progress(null, 100);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  /**
   * The engine's corpus: each recording as a local path (the stored file on the local disk, a copy in
   * the work folder from S3), its latest transcript, and its placed words when a person corrected it.
   */
  private async items(model: ModelRow, corpus: AlignmentRow[], work: string): Promise<AdaptTask['items']> {
    const deps = { db: this.db, files: this.files, now: this.now };
    const items: AdaptTask['items'] = [];
    for (const [k, row] of corpus.entries()) {
      if (!row.audio_file) continue;
      const latest = await readRevision(deps, row);
      const corrected =
        latest.revision?.hand_corrected === true && latest.words.some((w) => w.hand_corrected);
      const fixedWords = corrected
        ? latest.words
            .filter((w) => w.status === 'aligned' && w.start !== null && w.end !== null && w.end > w.start)
            .map((w) => ({ text: w.word, start: w.start!, end: w.end! }))
        : undefined;
      const key = this.files.key(row.user_id, row.audio_file);
      const store = this.files.store;
      let audio: string;
      if (store instanceof LocalFileStore) audio = store.path(key);
      else {
        // the engine reads the corpus once per pass: each recording is copied once for the whole job
        audio = join(work, `${k}.${row.audio_format ?? 'audio'}`);
        await pipeline(await store.get(key), createWriteStream(audio));
      }
      items.push({
        audio,
        text: latest.text.original,
        inputKind: parseStoredOptions(row.options).input_kind,
        fixedWords,
      });
    }
    return items;
  }

  async failed(job: JobRow, failure: JobFailure): Promise<void> {
    if (!job.model_id) return;
    await updateModel(this.db, job.model_id, {
      status: 'failed',
      error_code: failure.code,
      error_params: JSON.stringify(failure.params),
      updated_at: this.iso(),
    });
  }

  async cancelled(job: JobRow): Promise<void> {
    if (!job.model_id) return;
    await updateModel(this.db, job.model_id, { status: 'cancelled', updated_at: this.iso() });
  }

  async requeued(job: JobRow): Promise<void> {
    if (!job.model_id) return;
    await updateModel(this.db, job.model_id, { status: 'queued', updated_at: this.iso() }, [
      'processing',
      'queued',
    ]);
  }
}

async function folderBytes(dir: string): Promise<number> {
  let n = 0;
  for (const f of await readdir(dir)) n += (await stat(join(dir, f))).size;
  return n;
}
