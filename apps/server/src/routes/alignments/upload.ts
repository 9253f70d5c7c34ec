// POST /api/alignments/: the multipart body is streamed part by part; the audio goes straight to a
// temp file under DATA_DIR/tmp (never whole in memory), is checked by its bytes and by ffprobe, is
// moved into the file store (a rename on the local disk, an upload to S3), and only then are the quota
// unit, the row and the job written in one transaction. Any failure removes the temp file and the
// alignment's stored files, so a refused upload leaves nothing behind.
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { probeAudio, wavHoldsNonFinite } from '@tazamun/aligner/audio';
import { EngineError, backendInstalled, planAlignment } from '@tazamun/aligner/engine';
import type { AlignmentPlan } from '@tazamun/aligner/engine';
import { LANGUAGE_CODE, UploadOptions } from '@tazamun/contracts/alignments';
import type { UploadOptions as UploadOptionsT } from '@tazamun/contracts/alignments';
import { errorMessage } from '@tazamun/contracts/errors';
import { checkJobBounds } from '@tazamun/contracts/job-bounds';
import { LIMITS, MB } from '@tazamun/contracts/limits';
import { findOwnedProject } from '../../db/projects.ts';
import { findUserById } from '../../db/users.ts';
import { AppError, createError, fieldError } from '../../errors.ts';
import { tempPath } from '../../storage/local-copy.ts';
import { SNIFF_BYTES, sniffAudio } from '../../media/audio-sniff.ts';
import type { SniffedFormat } from '../../media/audio-sniff.ts';
import { cleanTranscriptText, decodeTranscript, holdsNul } from '../../media/text-decode.ts';
import { presentQuota } from '../../accounts/present-user.ts';
import { multipartFailure } from '../multipart-failure.ts';
import { createAlignment } from '../../commands/create-alignment.ts';
import type { ProbeGate } from './probe-gate.ts';
import type { AlignmentRow } from '../../db/schema.ts';

const FORMATS = LIMITS.audioFormats.map((f) => f.toUpperCase()).join(', ');
const mb = (bytes: number): string => `${Math.round(bytes / MB)} MB`;
const MIN_AUDIO_SECONDS = 0.1;

interface Received {
  audio: { tmp: string; size: number; head: Buffer; fileName: string } | null;
  text: string | null;
  fields: Record<string, string>;
}

/** A text_file part, read whole under the transcript size cap (single and batch uploads). */
export async function readTextFilePart(file: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file) {
    size += chunk.length;
    if (size > LIMITS.textFileMaxBytes)
      throw createError(
        'text_too_large',
        { size: mb(LIMITS.textFileMaxBytes) },
        { text_file: ['too large'] },
      );
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function audioError(code: 'audio_required' | 'audio_too_large' | 'audio_format_invalid', params = {}) {
  const messages = {
    audio_required: 'This field is required.',
    audio_too_large: `The audio file is too large (maximum ${mb(LIMITS.audioMaxBytes)}).`,
    audio_format_invalid: `This value is invalid: accepted formats are ${FORMATS}.`,
  };
  return createError(code, params, { audio: [messages[code]] });
}

/** NUL in a transcript came back inside words and raw in CSV exports (issue 27, item 11). */
function nulInText(field: 'text' | 'text_file') {
  return createError(
    'text_control_characters',
    {},
    { [field]: ['This value is invalid: it holds a NUL character.'] },
  );
}

/** The bytes look like a known format but ffprobe cannot read them: a damaged file, not a wrong type. */
function undecodable(format: SniffedFormat) {
  return createError(
    'audio_undecodable',
    { format: format.toUpperCase() },
    { audio: ['This file cannot be decoded: its content is damaged or incomplete.'] },
  );
}

async function receive(request: FastifyRequest, tmp: string): Promise<Received> {
  const out: Received = { audio: null, text: null, fields: {} };
  const parts = request.parts({
    limits: {
      fileSize: LIMITS.audioMaxBytes,
      fieldSize: LIMITS.textFileMaxBytes + 1,
      files: 2,
      fields: 20,
    },
  });
  for await (const part of parts) {
    if (part.type === 'field') {
      if (part.valueTruncated)
        throw createError('text_too_large', { size: mb(LIMITS.textFileMaxBytes) }, { text: ['too large'] });
      out.fields[part.fieldname] = String(part.value);
      continue;
    }
    if (part.fieldname === 'audio' && !out.audio) {
      let head = Buffer.alloc(0);
      let size = 0;
      const tap = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES)]);
          size += chunk.length;
          cb(null, chunk);
        },
      });
      try {
        await pipeline(part.file, tap, createWriteStream(tmp));
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw audioError('audio_too_large', { size: mb(LIMITS.audioMaxBytes) });
        throw err;
      }
      if (part.file.truncated) throw audioError('audio_too_large', { size: mb(LIMITS.audioMaxBytes) });
      out.audio = { tmp, size, head: head.subarray(0, SNIFF_BYTES), fileName: part.filename || 'audio' };
    } else if (part.fieldname === 'text_file' && out.text === null) {
      const text = decodeTranscript(await readTextFilePart(part.file));
      if (text === null) throw createError('text_encoding_invalid', {}, { text_file: ['invalid UTF-8'] });
      if (holdsNul(text)) throw nulInText('text_file');
      out.text = text;
    } else {
      part.file.resume();
      throw createError(
        'bad_request',
        {},
        { non_field_errors: [`unexpected file field "${part.fieldname}"`] },
      );
    }
  }
  return out;
}

const BOOL = /^(true|false|1|0|on|off)$/;

const unsupported = (code: string) =>
  createError('language_unsupported', { code }, { language: ['This value is invalid.'] });

export function parseOptions(fields: Record<string, string>): UploadOptionsT {
  const language = fields.language?.trim() ?? '';
  if (!language) throw createError('language_required', {}, { language: ['This field is required.'] });
  if (!LANGUAGE_CODE.test(language))
    throw createError(
      'language_invalid',
      {},
      { language: ['This value is invalid: expected an ISO 639-3 or 639-1 code in lowercase letters.'] },
    );
  // The engine's own rule (plan.ts) decides whether this installation can align the language: an IPA
  // transcript takes every ISO 639-3 code; written text needs a pronunciation route, or MMS (which reads
  // any language) when it is installed. Values the schema refuses below are planned as their defaults.
  const inputKind = fields.input_kind === 'ipa' ? 'ipa' : 'orthography';
  const asked = fields.engine === 'hmm' || fields.engine === 'mms' ? fields.engine : 'auto';
  let plan: AlignmentPlan;
  try {
    plan = planAlignment(language, { inputKind, engine: asked });
  } catch (err) {
    if (err instanceof EngineError && err.code === 'unsupported_option')
      throw fieldError({ input_kind: [`This value is invalid: ${err.message}`] });
    throw unsupported(language);
  }
  // auto would send written text in this language to MMS, which is not installed here
  if (asked === 'auto' && !backendInstalled(plan.backend)) throw unsupported(language);
  const bools: Record<string, boolean> = {};
  const fieldErrors: Record<string, string[]> = {};
  for (const k of ['normalize', 'remove_fillers', 'numbers_to_words']) {
    const v = fields[k]?.trim().toLowerCase();
    if (v === undefined || v === '') continue;
    if (!BOOL.test(v)) fieldErrors[k] = ['This value is invalid: expected true or false.'];
    else bools[k] = v === 'true' || v === '1' || v === 'on';
  }
  const parsed = UploadOptions.safeParse({
    language: plan.language.iso3,
    ...bools,
    ...(fields.precision ? { precision: fields.precision } : {}),
    ...(fields.engine ? { engine: fields.engine } : {}),
    ...(fields.input_kind ? { input_kind: fields.input_kind } : {}),
    ...(fields.title?.trim() ? { title: fields.title.trim() } : {}),
    ...(fields.project_id?.trim() ? { project_id: fields.project_id.trim() } : {}),
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const k = issue.path.join('.') || 'non_field_errors';
      (fieldErrors[k] ??= []).push(`This value is invalid: ${issue.message}`);
    }
  }
  if (Object.keys(fieldErrors).length || !parsed.success) throw fieldError(fieldErrors);
  const engine = parsed.data.engine;
  if (engine !== 'auto' && !backendInstalled(engine))
    throw createError('engine_unavailable', { engine }, { engine: ['This value is invalid.'] });
  return parsed.data;
}

export async function checkAudio(
  audio: NonNullable<Received['audio']>,
  gate: ProbeGate,
): Promise<{ format: SniffedFormat; duration: number; sampleRate: number }> {
  if (audio.size === 0) throw audioError('audio_format_invalid', { formats: FORMATS });
  const format = sniffAudio(audio.head);
  if (!format) throw audioError('audio_format_invalid', { formats: FORMATS });
  let duration: number;
  let sampleRate: number;
  try {
    ({ duration, sampleRate } = await gate.run(() => probeAudio(audio.tmp)));
  } catch (err) {
    if (err instanceof AppError) throw err; // server_busy
    throw undecodable(format);
  }
  if (!(duration > 0)) throw undecodable(format);
  // a float WAV of NaN or infinite samples was "completed" with nothing aligned, and no video could
  // be rendered of it (issue 27, item 14)
  if (format === 'wav' && (await wavHoldsNonFinite(audio.tmp)))
    throw createError(
      'audio_samples_invalid',
      {},
      { audio: ['This value is invalid: the samples are not numbers (NaN or infinity).'] },
    );
  if (duration < MIN_AUDIO_SECONDS)
    throw createError(
      'audio_unusable',
      { reason: 'the audio is too short (less than 0.1 s)' },
      { audio: ['too short'] },
    );
  return { format, duration, sampleRate };
}

/**
 * What the job would cost (contracts' job-bounds.ts): checked before the quota transaction, so a
 * refused upload takes no unit. The field message is the English catalogue text, as for the others.
 */
export function checkBounds(
  duration: number,
  sampleRate: number,
  text: string,
  maxAudioSeconds: number,
): void {
  const v = checkJobBounds({ durationSeconds: duration, sampleRate, text, maxAudioSeconds });
  if (!v) return;
  const field = v.code === 'transcript_too_long' ? 'text' : 'audio';
  throw createError(v.code, v.params, { [field]: [errorMessage(v.code, 'en', v.params)] });
}

export async function acceptUpload(
  request: FastifyRequest,
  userId: string,
  gate: ProbeGate,
): Promise<AlignmentRow> {
  const app = request.server;
  const { deps } = app;
  const db = deps.db;
  const now = deps.clock.now();

  const user = (await findUserById(deps.db, userId))!;
  const quota = presentQuota(user, now);
  if (quota.used_today >= quota.daily_limit)
    throw createError('quota_exhausted', { limit: user.daily_limit }, { quota });

  const tmp = await tempPath(deps.files.tmpDir, '.upload');
  try {
    const got = await receive(request, tmp);
    if (!got.audio) throw audioError('audio_required');
    const text = got.text ?? (got.fields.text !== undefined ? cleanTranscriptText(got.fields.text) : null);
    if (!text || !text.trim()) throw createError('text_required', {}, { text: ['This field is required.'] });
    if (holdsNul(text)) throw nulInText('text');
    const options = parseOptions(got.fields);
    const { format, duration, sampleRate } = await checkAudio(got.audio, gate);
    checkBounds(duration, sampleRate, text, app.jobs.config.maxAudioSeconds);
    if (options.project_id) {
      const project = await findOwnedProject(db, userId, options.project_id);
      if (!project) throw fieldError({ project_id: ['This value is invalid: no such project.'] });
    }
    return await createAlignment(app, userId, options, {
      requestId: request.id,
      tmp: got.audio.tmp,
      fileName: got.audio.fileName,
      size: got.audio.size,
      format,
      duration,
      text,
    });
  } catch (err) {
    await rm(tmp, { force: true });
    throw multipartFailure(err, request.log, 'upload failed');
  }
}
