// What an operator follows of each job, around the handlers without changing them (and without
// touching the queues): a "job started" and a "job ended" line with the alignment id, the upload's
// request id, the attempt, the duration and the outcome; the engine's own error message kept on the
// job row (jobs.last_error) for the admin list; and the job metrics of this process.
import type { FastifyBaseLogger } from 'fastify';
import type { JobOutcome, Metrics } from '../metrics/metrics.ts';
import { JobFailure } from './job-queue.ts';
import type { JobContext, JobHandler, JobKind } from './job-queue.ts';
import { alignmentFacts } from '../db/alignments.ts';
import type { Db } from '../db/database.ts';
import { recordLastError } from '../db/jobs.ts';
import { findModel } from '../db/models.ts';
import type { JobRow } from '../db/schema.ts';

interface RunInfo {
  startedAt: number;
  requestId: string | null;
  language: string;
  error: string | null;
}

interface AlignmentFacts {
  language: string;
  request_id: string | null;
  engine: string | null;
  duration: number | null;
  processing_time: number | null;
}

const LAST_ERROR_MAX = 2000;

function messageOf(err: unknown, job: JobRow, signal: AbortSignal): string {
  if (signal.aborted && signal.reason === 'timeout') return `timed out after ${job.timeout_ms} ms`;
  if (err instanceof JobFailure && Object.keys(err.params).length > 0)
    return `${err.code}: ${JSON.stringify(err.params)}`;
  if (err instanceof Error) return err.message;
  return String(err);
}

class ObservedHandler implements JobHandler {
  private readonly runs = new Map<string, RunInfo>();

  constructor(
    private readonly inner: JobHandler,
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly metrics: Metrics | null,
  ) {}

  /** Best effort: a log line or a gauge never fails a job, even with the database away. */
  private async facts(job: JobRow): Promise<AlignmentFacts | undefined> {
    if (job.alignment_id) return alignmentFacts(this.db, job.alignment_id).catch(() => undefined);
    // an adaptation: its model's language
    const model = job.model_id ? await findModel(this.db, job.model_id).catch(() => undefined) : undefined;
    return model
      ? { language: model.language, request_id: null, engine: 'hmm', duration: null, processing_time: null }
      : undefined;
  }

  private ended(job: JobRow, outcome: JobOutcome, extra: Record<string, unknown>, engine?: string | null) {
    const run = this.runs.get(job.id);
    this.runs.delete(job.id);
    const seconds = run ? (Date.now() - run.startedAt) / 1000 : null;
    const language = run?.language ?? 'unknown';
    const line = {
      job: job.id,
      kind: job.kind,
      alignment: job.alignment_id,
      model: job.model_id,
      request_id: run?.requestId ?? null,
      attempt: job.attempts,
      outcome,
      duration_ms: seconds === null ? null : Math.round(seconds * 1000),
      language,
      ...extra,
    };
    if (outcome === 'failed' || outcome === 'abandoned') this.log.warn(line, 'job ended');
    else this.log.info(line, 'job ended');
    this.metrics?.jobEnded({ kind: job.kind, outcome, engine: engine ?? 'none', language }, seconds);
  }

  async run(job: JobRow, ctx: JobContext): Promise<void> {
    const facts = await this.facts(job);
    const run: RunInfo = {
      startedAt: Date.now(),
      requestId: facts?.request_id ?? null,
      language: facts?.language ?? 'unknown',
      error: null,
    };
    this.runs.set(job.id, run);
    this.log.info(
      {
        job: job.id,
        kind: job.kind,
        alignment: job.alignment_id,
        model: job.model_id,
        request_id: run.requestId,
        attempt: job.attempts,
        language: run.language,
      },
      'job started',
    );
    try {
      await this.inner.run(job, ctx);
    } catch (err) {
      run.error = messageOf(err, job, ctx.signal).slice(0, LAST_ERROR_MAX);
      // a cancel or a shutdown is no error of the job's; a time-out is
      if (!ctx.signal.aborted || ctx.signal.reason === 'timeout')
        await recordLastError(this.db, job.id, run.error).catch(() => undefined);
      throw err;
    }
    // an abort that came after the work ended is settled by the queue (cancelled, handed back)
    if (ctx.signal.aborted) return;
    const done = await this.facts(job);
    const engine = job.kind === 'align' || job.kind === 'adapt' ? (done?.engine ?? null) : 'ffmpeg';
    const rtf =
      job.kind === 'align' && done?.duration && done.processing_time !== null
        ? done.processing_time / done.duration
        : null;
    if (rtf !== null && this.metrics)
      this.metrics.realTimeFactor.observe({ engine: engine ?? 'none', language: run.language }, rtf);
    this.ended(job, 'completed', { engine, rtf: rtf === null ? null : Number(rtf.toFixed(4)) }, engine);
  }

  async failed(job: JobRow, failure: JobFailure): Promise<void> {
    await this.inner.failed(job, failure);
    const error = this.runs.get(job.id)?.error ?? null;
    this.ended(job, 'failed', { code: failure.code, error });
  }

  async cancelled(job: JobRow): Promise<void> {
    await this.inner.cancelled(job);
    this.ended(job, 'cancelled', {});
  }

  async requeued(job: JobRow): Promise<void> {
    await this.inner.requeued(job);
    this.ended(job, 'requeued', { error: this.runs.get(job.id)?.error ?? null });
  }

  /** The runner could not record the run's end: still one `job ended` line and one counted run. */
  abandoned(job: JobRow, err: unknown): void {
    this.inner.abandoned?.(job, err);
    this.ended(job, 'abandoned', { error: (err as Error)?.message ?? String(err) });
  }
}

/** The handlers, each wrapped: logs, jobs.last_error and (when given) metrics. */
export function observeHandlers(
  handlers: Record<JobKind, JobHandler>,
  db: Db,
  log: FastifyBaseLogger,
  metrics: Metrics | null,
): Record<JobKind, JobHandler> {
  return {
    align: new ObservedHandler(handlers.align, db, log, metrics),
    video: new ObservedHandler(handlers.video, db, log, metrics),
    realign: new ObservedHandler(handlers.realign, db, log, metrics),
    adapt: new ObservedHandler(handlers.adapt, db, log, metrics),
  };
}
