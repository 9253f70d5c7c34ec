// The command behind every accepted upload, single or batch: the checked audio (a temp file) and the
// transcript move into the file store, then the quota units, the rows and the jobs are written in one
// transaction. A batch takes one unit per recording and is all or nothing: when the quota does not
// cover it, nothing is stored. Any failure removes the temp files and what was already stored.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { UploadOptions } from '@tazamun/contracts/alignments';
import { checkLanguage } from '@tazamun/contracts/language-check';
import { utcDay } from '../clock.ts';
import { planAlignment } from '@tazamun/aligner/engine';
import { insertAlignment } from '../db/alignments.ts';
import { modelForUpload } from '../db/models.ts';
import { consumeQuota, findUserById } from '../db/users.ts';
import type { AlignmentRow, UserRow } from '../db/schema.ts';
import { createError } from '../errors.ts';
import { alignmentFile, removeAlignmentFiles } from '../jobs/alignment-files.ts';
import { jobTimeoutMs } from '../jobs/job-config.ts';
import { AUDIO_MIME } from '../media/audio-sniff.ts';
import type { SniffedFormat } from '../media/audio-sniff.ts';
import { presentQuota } from '../accounts/present-user.ts';
import { moveIntoStore } from '../storage/local-copy.ts';

/** One checked recording: its audio is a temp file the command takes over (moved or removed). */
export interface CheckedRecording {
  tmp: string;
  fileName: string;
  size: number;
  format: SniffedFormat;
  duration: number;
  text: string;
  title?: string;
  /** the request that brought it: the job's log lines name it (what a user quotes to support) */
  requestId?: string;
}

export interface CreateAlignmentsInput {
  userId: string;
  /** the options shared by every recording (language, precision, project...) */
  options: UploadOptions;
  recordings: CheckedRecording[];
}

/** 429 before anything is stored when today's quota cannot take `needed` more units. */
export function quotaCovers(user: UserRow, now: Date, needed: number): void {
  const quota = presentQuota(user, now);
  const remaining = Math.max(0, quota.daily_limit - quota.used_today);
  if (needed <= remaining) return;
  if (needed === 1) throw createError('quota_exhausted', { limit: user.daily_limit }, { quota });
  throw createError(
    'quota_insufficient',
    { needed, remaining, limit: user.daily_limit },
    { quota, needed, fits: remaining },
  );
}

export async function createAlignments(
  app: FastifyInstance,
  input: CreateAlignmentsInput,
): Promise<AlignmentRow[]> {
  const { deps } = app;
  const db = deps.db;
  const { userId, recordings } = input;
  const now = deps.clock.now();
  const today = utcDay(now);
  const ids = recordings.map(() => randomUUID());
  const stored: string[] = [];
  try {
    quotaCovers((await findUserById(deps.db, userId))!, now, recordings.length);
    for (const [k, r] of recordings.entries()) {
      const id = ids[k]!;
      stored.push(id);
      await moveIntoStore(
        deps.files.store,
        deps.files.key(userId, alignmentFile(id, `audio.${r.format}`)),
        r.tmp,
        { contentType: AUDIO_MIME[r.format] },
      );
      await deps.files.store.put(deps.files.key(userId, alignmentFile(id, 'text.txt')), Buffer.from(r.text), {
        contentType: 'text/plain; charset=utf-8',
      });
    }
    const nowIso = now.toISOString();
    const { title, project_id, language, ...alignOptions } = input.options;
    // The project's adapted model of the language, while its setting is on and the hmm back-end aligns
    // (an adapted model is an hmm model): named on the row, which the job and the result follow.
    const model =
      project_id &&
      planAlignment(language, { inputKind: alignOptions.input_kind, engine: alignOptions.engine }).backend ===
        'hmm'
        ? await modelForUpload(db, userId, project_id, language)
        : undefined;
    const rows = await db.transaction().execute(async (trx) => {
      for (let k = 0; k < recordings.length; k++) {
        if (!(await consumeQuota(trx, userId, today))) {
          // another request took the units between the check above and this transaction
          quotaCovers((await findUserById(trx, userId))!, now, recordings.length - k);
        }
      }
      const inserted: AlignmentRow[] = [];
      for (const [k, r] of recordings.entries()) {
        const id = ids[k]!;
        inserted.push(
          await insertAlignment(trx, {
            id,
            user_id: userId,
            project_id: project_id ?? null,
            title: r.title ?? title ?? r.fileName,
            language,
            // known from the text alone: shown while the job runs; the result confirms it
            detected_language: checkLanguage(r.text, language, alignOptions.input_kind).detected,
            status: 'queued',
            step: null,
            progress: 0,
            duration: r.duration,
            confidence: null,
            wer: null,
            cer: null,
            words: null,
            coverage: null,
            processing_time: null,
            file_name: r.fileName,
            file_size: r.size,
            options: JSON.stringify(alignOptions),
            audio_file: alignmentFile(id, `audio.${r.format}`),
            audio_format: r.format,
            text_file: alignmentFile(id, 'text.txt'),
            result_file: null,
            processed_text: null,
            engine: null,
            error_code: null,
            error_params: null,
            quota_day: today,
            quota_refunded: 0,
            search_text: r.text.slice(0, 20_000).toLowerCase(),
            request_id: r.requestId ?? null,
            model_id: model?.id ?? null,
            model_name: model?.name ?? null,
            created_at: nowIso,
            updated_at: nowIso,
            completed_at: null,
          }),
        );
        await app.jobs.queue.enqueue(trx, {
          kind: 'align',
          userId,
          alignmentId: id,
          timeoutMs: jobTimeoutMs(app.jobs.config, r.duration),
        });
      }
      return inserted;
    });
    app.jobs.queue.wake();
    return rows;
  } catch (err) {
    for (const r of recordings) await rm(r.tmp, { force: true });
    for (const id of stored) await removeAlignmentFiles(deps.files, userId, id).catch(() => undefined);
    throw err;
  }
}

/** A single upload: the batch of one. */
export async function createAlignment(
  app: FastifyInstance,
  userId: string,
  options: UploadOptions,
  recording: CheckedRecording,
): Promise<AlignmentRow> {
  return (await createAlignments(app, { userId, options, recordings: [recording] }))[0]!;
}
