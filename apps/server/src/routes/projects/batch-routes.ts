// POST /api/projects/{id}/batch/: a corpus in one request. A zip in the Montreal Forced Aligner's layout
// (`archive`) or several `audio` + `text_file` parts, with the single upload's option fields. Each
// recording is checked as a single upload is (by content, then by ffprobe) and its transcript read;
// the ones that fail are listed in `skipped` with the reason, the others become one alignment each,
// queued together by the createAlignments command (one quota unit each, all or nothing).
import { open, rm } from 'node:fs/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorMessage } from '@tazamun/contracts/errors';
import type { ErrorCode } from '@tazamun/contracts/errors';
import { LIMITS, MB } from '@tazamun/contracts/limits';
import type { UiLanguage } from '@tazamun/contracts/limits';
import { BATCH_LIMITS, BatchResponse } from '@tazamun/contracts/projects';
import type { BatchSkipped } from '@tazamun/contracts/projects';
import { pairCorpus } from '@tazamun/aligner/corpus';
import type { CorpusSkipReason } from '@tazamun/aligner/corpus';
import { createAlignments, quotaCovers } from '../../commands/create-alignment.ts';
import type { CheckedRecording } from '../../commands/create-alignment.ts';
import { CorpusZip } from '../../corpus/corpus-zip.ts';
import { receiveBatch, transcriptsTooLarge } from '../../corpus/receive-batch.ts';
import type { ReceivedBatch } from '../../corpus/receive-batch.ts';
import { TranscriptReader } from '../../corpus/transcript-reader.ts';
import { findOwnedProject } from '../../db/projects.ts';
import { findUserById } from '../../db/users.ts';
import { AppError, createError } from '../../errors.ts';
import { SNIFF_BYTES } from '../../media/audio-sniff.ts';
import { auth, requireApproved } from '../../plugins/auth-guard.ts';
import { requestLanguage } from '../../plugins/language.ts';
import { multipartFailure } from '../multipart-failure.ts';
import { tempPath } from '../../storage/local-copy.ts';
import { IdParams } from '../alignments/alignment-routes.ts';
import { presentAlignment } from '../alignments/present-alignment.ts';
import { audioError, checkAudio, checkBounds, parseOptions } from '../alignments/upload.ts';

const LAYOUT_CODES: Record<CorpusSkipReason, ErrorCode> = {
  no_transcript: 'corpus_no_transcript',
  no_recording: 'corpus_no_recording',
  duplicate_recording: 'corpus_duplicate',
  duplicate_transcript: 'corpus_duplicate',
  not_corpus_file: 'corpus_not_corpus_file',
};

/** One recording before its checks: where its audio is and how to get its transcript's bytes. */
interface Candidate {
  base: string;
  audioName: string;
  transcriptName: string;
  audio: () => Promise<{ tmp: string; size: number }>;
  /** null when the transcript holds more than a transcript may (LIMITS.textFileMaxBytes) */
  transcript: () => Promise<Buffer | null>;
}

async function readHead(path: string): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fh.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** Several audio + text_file parts: by base name when every recording has its transcript, else in order. */
function pairParts(got: ReceivedBatch) {
  const names = [...got.audio.map((a) => a.name), ...got.text.map((t) => t.name)];
  const layout = pairCorpus(names);
  if (layout.pairs.length === got.audio.length || got.audio.length !== got.text.length) return layout;
  return {
    pairs: got.audio.map((a, k) => ({
      base: a.name.replace(/\.[^./]*$/, ''),
      audio: a.name,
      transcript: got.text[k]!.name,
    })),
    skipped: [],
  };
}

export const batchRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const db = deps.db;
  const gate = app.probeGate;
  const transcripts = new TranscriptReader(app.log);
  app.addHook('onClose', () => transcripts.close());

  app.post(
    '/:id/batch/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['projects'],
        summary: 'Upload a corpus into the project: a zip in MFA’s layout, or audio + text_file pairs',
        description:
          'multipart/form-data. Either `archive` (a zip: each recording and its transcript share a base ' +
          'name at any folder depth; the transcript is a .lab or .txt file, or a TextGrid of one tier) or ' +
          'several `audio` + `text_file` parts (paired by base name, else in order), with the fields of ' +
          'POST /api/alignments/ (`language`, `precision`, ...). One alignment and one quota unit per ' +
          'recording; 429 before anything is stored when the quota does not cover them all. Zip limits: ' +
          `${BATCH_LIMITS.archiveMaxBytes / 2 ** 20} MB, ${BATCH_LIMITS.maxEntries} entries, ` +
          `${BATCH_LIMITS.maxRecordings} recordings, compression ratio ${BATCH_LIMITS.maxCompressionRatio}.`,
        consumes: ['multipart/form-data'],
        params: IdParams,
        response: { 202: BatchResponse },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart())
        throw createError('bad_request', {}, { non_field_errors: ['Send multipart/form-data.'] });
      const userId = auth(request).user.id;
      const lang = requestLanguage(request);
      const project = await findOwnedProject(db, userId, request.params.id);
      if (!project) throw createError('not_found');
      quotaCovers((await findUserById(deps.db, userId))!, deps.clock.now(), 1);

      const got: ReceivedBatch = { archive: null, audio: [], text: [], fields: {}, temps: [] };
      let zip: CorpusZip | null = null;
      try {
        await receiveBatch(request, deps.files.tmpDir, got, {
          maxBytes: deps.config.batchMaxBytes,
          minFreeBytes: deps.config.minFreeDiskBytes,
        });
        const options = parseOptions({ ...got.fields, project_id: project.id });
        let candidates: Candidate[];
        let layoutSkipped: { name: string; reason: CorpusSkipReason }[];
        if (got.archive) {
          zip = await CorpusZip.open(got.archive);
          const z = zip;
          const layout = pairCorpus([...z.entries.keys()]);
          layoutSkipped = layout.skipped;
          // judged by the headers before anything is inflated (a transcript over its own cap is skipped)
          const held = layout.pairs
            .map((p) => z.size(p.transcript))
            .filter((n) => n <= LIMITS.textFileMaxBytes)
            .reduce((a, b) => a + b, 0);
          if (held > BATCH_LIMITS.maxTranscriptBytes) throw transcriptsTooLarge();
          candidates = layout.pairs.map((p) => ({
            base: p.base,
            audioName: p.audio,
            transcriptName: p.transcript,
            audio: async () => {
              // judged by the zip's header before anything is inflated; yauzl holds it to that size
              if (z.size(p.audio) > LIMITS.audioMaxBytes)
                throw audioError('audio_too_large', { size: `${LIMITS.audioMaxBytes / MB} MB` });
              const tmp = await tempPath(deps.files.tmpDir, '.upload');
              got.temps.push(tmp);
              await z.extractTo(p.audio, tmp);
              return { tmp, size: z.size(p.audio) };
            },
            transcript: () => z.read(p.transcript, LIMITS.textFileMaxBytes),
          }));
        } else if (got.audio.length) {
          const layout = pairParts(got);
          layoutSkipped = layout.skipped;
          const audioBy = new Map(got.audio.map((a) => [a.name, a]));
          const textBy = new Map(got.text.map((t) => [t.name, t.bytes]));
          candidates = layout.pairs.map((p) => ({
            base: p.base,
            audioName: p.audio,
            transcriptName: p.transcript,
            audio: async () => audioBy.get(p.audio)!,
            transcript: async () => textBy.get(p.transcript)!,
          }));
        } else {
          throw createError('audio_required', {}, { archive: ['This field is required.'] });
        }
        if (candidates.length > BATCH_LIMITS.maxRecordings)
          throw createError('batch_too_many', { max: BATCH_LIMITS.maxRecordings, count: candidates.length });

        const skipped: BatchSkipped[] = layoutSkipped.map((s) => ({
          name: s.name,
          reason: errorMessage(LAYOUT_CODES[s.reason], lang),
        }));
        const recordings = await checkCandidates(candidates, skipped, lang, request.id);
        skipped.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
        if (recordings.length === 0) throw createError('batch_empty', {}, { skipped });
        const rows = await createAlignments(app, { userId, options, recordings });
        return reply.code(202).send({
          alignments: rows.map((r) => presentAlignment(r, lang, false)),
          skipped,
        });
      } catch (err) {
        throw multipartFailure(err, request.log, 'batch upload failed');
      } finally {
        zip?.close();
        // moved into the store when accepted; everything else goes
        for (const t of got.temps) await rm(t, { force: true });
      }
    },
  );

  /** Each candidate checked as a single upload is; failures become `skipped` entries. */
  async function checkCandidates(
    candidates: Candidate[],
    skipped: BatchSkipped[],
    lang: UiLanguage,
    requestId: string,
  ): Promise<CheckedRecording[]> {
    const out: CheckedRecording[] = [];
    const skip = (name: string, code: ErrorCode, params: Record<string, string | number> = {}) =>
      skipped.push({ name, reason: errorMessage(code, lang, params) });
    for (const c of candidates) {
      const bytes = await c.transcript();
      if (bytes === null) {
        skip(c.transcriptName, 'text_too_large', { size: `${LIMITS.textFileMaxBytes / MB} MB` });
        continue;
      }
      const transcript = await transcripts.read(c.transcriptName, bytes);
      if ('code' in transcript) {
        skip(c.transcriptName, transcript.code);
        continue;
      }
      const { text } = transcript;
      try {
        const a = await c.audio();
        const { format, duration, sampleRate } = await checkAudio(
          { tmp: a.tmp, size: a.size, head: await readHead(a.tmp), fileName: c.audioName },
          gate,
        );
        // the single upload's bounds (duration, sample rate, text per second): a refused pair is skipped
        checkBounds(duration, sampleRate, text, app.jobs.config.maxAudioSeconds);
        out.push({
          tmp: a.tmp,
          fileName: c.audioName,
          size: a.size,
          format,
          duration,
          text,
          title: c.base,
          requestId,
        });
      } catch (err) {
        if (!(err instanceof AppError) || err.code === 'server_busy' || err.code === 'archive_unsafe')
          throw err;
        skip(c.audioName, err.code, err.params);
      }
    }
    return out;
  }
};
