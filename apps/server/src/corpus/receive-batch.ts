// The body of a batch upload, streamed part by part: an `archive` zip (to a temp file) or several
// `audio` + `text_file` pairs (audio to temp files, transcripts in memory), and the option fields.
import { createWriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { LIMITS, MB } from '@tazamun/contracts/limits';
import { BATCH_LIMITS } from '@tazamun/contracts/projects';
import { createError } from '../errors.ts';
import { readTextFilePart } from '../routes/alignments/upload.ts';
import { tempPath } from '../storage/local-copy.ts';

export interface ReceivedBatch {
  archive: string | null;
  audio: { name: string; tmp: string; size: number }[];
  text: { name: string; bytes: Buffer }[];
  fields: Record<string, string>;
  /** every temp file written, for the caller to remove */
  temps: string[];
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

export async function receiveBatch(
  request: FastifyRequest,
  tmpDir: string,
  out: ReceivedBatch,
): Promise<void> {
  const parts = request.parts({
    limits: {
      fileSize: Math.max(BATCH_LIMITS.archiveMaxBytes, LIMITS.audioMaxBytes),
      fieldSize: 10_000,
      files: 2 * BATCH_LIMITS.maxRecordings + 1,
      fields: 20,
    },
  });
  for await (const part of parts) {
    if (part.type === 'field') {
      out.fields[part.fieldname] = String(part.value);
      continue;
    }
    if (part.fieldname === 'archive' && !out.archive) {
      const tmp = await tempPath(tmpDir, '.zip');
      out.temps.push(tmp);
      await pipeline(part.file, createWriteStream(tmp)).catch((err: { code?: string }) => {
        throw err.code === 'FST_REQ_FILE_TOO_LARGE'
          ? tooLarge('archive_too_large', 'archive', BATCH_LIMITS.archiveMaxBytes)
          : err;
      });
      if (part.file.truncated) throw tooLarge('archive_too_large', 'archive', BATCH_LIMITS.archiveMaxBytes);
      out.archive = tmp;
    } else if (part.fieldname === 'audio') {
      const tmp = await tempPath(tmpDir, '.upload');
      out.temps.push(tmp);
      let size = 0;
      // the part limit is the archive's: each recording stops at the audio limit instead
      const cap = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          size += chunk.length;
          cb(
            size > LIMITS.audioMaxBytes ? tooLarge('audio_too_large', 'audio', LIMITS.audioMaxBytes) : null,
            chunk,
          );
        },
      });
      await pipeline(part.file, cap, createWriteStream(tmp));
      out.audio.push({ name: cleanName(part.filename || `audio-${out.audio.length + 1}`), tmp, size });
    } else if (part.fieldname === 'text_file') {
      const bytes = await readTextFilePart(part.file as AsyncIterable<Buffer>);
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
