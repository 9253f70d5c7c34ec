// The body of a batch upload, streamed part by part: an `archive` zip (to a temp file) or several
// `audio` + `text_file` pairs (audio to temp files, transcripts in memory), and the option fields.
// What one request may make the server hold is bounded as the parts arrive (issue 27, item 3): every
// file part together stays under BATCH_MAX_MB, the transcripts together under their own cap, and the
// free space of DATA_DIR is looked at again every few megabytes written, so a body of many large parts
// is refused (413, 507) while it streams, not after it filled the disk.
import { createWriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { LIMITS, MB } from '@tazamun/contracts/limits';
import { BATCH_LIMITS } from '@tazamun/contracts/projects';
import { createError } from '../errors.ts';
import type { AppError } from '../errors.ts';
import { readTextFilePart } from '../routes/alignments/upload.ts';
import { freeSpaceWatch } from '../reliability/disk-space.ts';
import { tempPath } from '../storage/local-copy.ts';

export interface ReceivedBatch {
  archive: string | null;
  audio: { name: string; tmp: string; size: number }[];
  text: { name: string; bytes: Buffer }[];
  fields: Record<string, string>;
  /** every temp file written, for the caller to remove */
  temps: string[];
}

export interface BatchBodyLimits {
  /** every file part together (BATCH_MAX_MB) */
  maxBytes: number;
  /** DATA_DIR must keep this much free space while parts are written (MIN_FREE_DISK_MB) */
  minFreeBytes: number;
}

const mb = (bytes: number): string => `${Math.round(bytes / MB)} MB`;

/** A client-given name as a label: "/" separators, no empty, "." or ".." segments. Never a disk path. */
export function cleanName(raw: string): string {
  return raw
    .replace(/\\/g, '/')
    .split('/')
    .filter((s) => s !== '' && s !== '.' && s !== '..')
    .join('/')
    .slice(-300);
}

function tooLarge(code: 'archive_too_large' | 'audio_too_large', field: string, max: number) {
  return createError(code, { size: mb(max) }, { [field]: ['too large'] });
}

export function transcriptsTooLarge() {
  return createError(
    'batch_text_too_large',
    { size: mb(BATCH_LIMITS.maxTranscriptBytes) },
    { text_file: ['too large'] },
  );
}

export async function receiveBatch(
  request: FastifyRequest,
  tmpDir: string,
  out: ReceivedBatch,
  limits: BatchBodyLimits,
): Promise<void> {
  const parts = request.parts({
    limits: {
      fileSize: Math.max(limits.maxBytes, LIMITS.audioMaxBytes),
      fieldSize: 10_000,
      files: 2 * BATCH_LIMITS.maxRecordings + 1,
      fields: 20,
    },
  });
  const spaceLeft = freeSpaceWatch(tmpDir, limits.minFreeBytes);
  let total = 0;
  let textTotal = 0;
  const requestTooLarge = () =>
    createError(
      'batch_too_large',
      { size: mb(limits.maxBytes) },
      { non_field_errors: [`The files of one batch may hold at most ${mb(limits.maxBytes)} together.`] },
    );
  /** Counts a part's bytes against the request's cap (and the part's own) and watches the disk. */
  const counted = (partCap: number, partTooLarge: () => AppError) => {
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        total += chunk.length;
        if (size > partCap) return cb(partTooLarge());
        if (total > limits.maxBytes) return cb(requestTooLarge());
        spaceLeft(chunk.length).then(
          () => cb(null, chunk),
          (err: unknown) => cb(err as Error),
        );
      },
    });
    return { meter, size: () => size };
  };
  for await (const part of parts) {
    if (part.type === 'field') {
      out.fields[part.fieldname] = String(part.value);
      continue;
    }
    if (part.fieldname === 'archive' && !out.archive) {
      const tmp = await tempPath(tmpDir, '.zip');
      out.temps.push(tmp);
      const cap = Math.min(BATCH_LIMITS.archiveMaxBytes, limits.maxBytes);
      const { meter } = counted(cap, () => tooLarge('archive_too_large', 'archive', cap));
      await pipeline(part.file, meter, createWriteStream(tmp)).catch((err: { code?: string }) => {
        throw err.code === 'FST_REQ_FILE_TOO_LARGE' ? tooLarge('archive_too_large', 'archive', cap) : err;
      });
      if (part.file.truncated) throw tooLarge('archive_too_large', 'archive', cap);
      out.archive = tmp;
    } else if (part.fieldname === 'audio') {
      const tmp = await tempPath(tmpDir, '.upload');
      out.temps.push(tmp);
      // the part limit is the request's: each recording stops at the audio limit instead
      const { meter, size } = counted(LIMITS.audioMaxBytes, () =>
        tooLarge('audio_too_large', 'audio', LIMITS.audioMaxBytes),
      );
      await pipeline(part.file, meter, createWriteStream(tmp));
      out.audio.push({
        name: cleanName(part.filename || `audio-${out.audio.length + 1}`),
        tmp,
        size: size(),
      });
    } else if (part.fieldname === 'text_file') {
      const bytes = await readTextFilePart(part.file as AsyncIterable<Buffer>);
      total += bytes.length;
      textTotal += bytes.length;
      if (total > limits.maxBytes) throw requestTooLarge();
      if (textTotal > BATCH_LIMITS.maxTranscriptBytes) throw transcriptsTooLarge();
      out.text.push({
        name: cleanName(part.filename || `text-${out.text.length + 1}.txt`),
        bytes,
      });
    } else {
      part.file.resume();
      throw createError(
        'bad_request',
        {},
        { non_field_errors: [`unexpected file field "${part.fieldname}"`] },
      );
    }
  }
}
