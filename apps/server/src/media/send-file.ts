// Serves a stored file with HTTP Range support (the audio player seeks with byte ranges); on S3 the
// range is passed on to GetObject, so a seek never downloads the whole file.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createError } from '../errors.ts';
import type { FileStore } from '../storage/storage.ts';

export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  store: FileStore,
  key: string,
  mimeType: string,
  downloadName?: string,
): Promise<FastifyReply> {
  const info = await store.stat(key);
  if (!info) throw createError('not_found');
  const size = info.size;
  reply.header('accept-ranges', 'bytes');
  reply.header('cache-control', 'private, max-age=0, must-revalidate');
  reply.header('last-modified', info.modified.toUTCString());
  if (downloadName) reply.header('content-disposition', contentDisposition(downloadName));
  reply.type(mimeType);
  const range = request.headers.range;
  if (range) {
    const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    let start: number;
    let end: number;
    if (!m || (m[1] === '' && m[2] === '')) throw rangeError(size);
    if (m[1] === '') {
      start = Math.max(0, size - Number(m[2]));
      end = size - 1;
    } else {
      start = Number(m[1]);
      end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    }
    if (start >= size || start > end) throw rangeError(size);
    reply.code(206);
    reply.header('content-range', `bytes ${start}-${end}/${size}`);
    reply.header('content-length', end - start + 1);
    return reply.send(await store.get(key, { start, end }));
  }
  reply.header('content-length', size);
  return reply.send(await store.get(key));
}

function rangeError(size: number) {
  return createError('range_not_satisfiable', {}, { content_range: `bytes */${size}` });
}

// Bidi controls (LRM/RLM/ALM, the embeddings and overrides, the isolates): an RLO in a download name
// makes "evil‮fdp.exe" show as "evilexe.pdf". Stripped, not replaced: they carry no visible character.
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
// A lone surrogate (half of a pair) makes encodeURIComponent throw: it becomes U+FFFD.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const wellFormed = (s: string) => s.replace(LONE_SURROGATE, '\uFFFD');

/** RFC 6266: an ASCII fallback plus the UTF-8 name, so Arabic titles survive. */
export function contentDisposition(name: string): string {
  const clean = wellFormed(name.replace(BIDI_CONTROLS, ''));
  const ascii = clean.replace(/[^\x20-\x7E]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(clean)}`;
}

const MAX_BASE_NAME = 80;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * A file name from a title: no extension, no path or control characters, no bidi controls, at most 80
 * UTF-16 units cut between grapheme clusters, so neither a surrogate pair (an emoji, a rare CJK
 * character) nor a letter and its combining marks are split.
 */
export function safeBaseName(title: string): string {
  const cleaned = wellFormed(title.replace(BIDI_CONTROLS, ''))
    .replace(/\.[A-Za-z0-9]{2,4}$/, '')
    // eslint-disable-next-line no-control-regex
    .replace(/[/\\:*?"<>|\u0000-\u001F\u007F]/g, '_')
    .trim();
  let base = '';
  for (const { segment } of graphemes.segment(cleaned)) {
    if (base.length + segment.length > MAX_BASE_NAME) break;
    base += segment;
  }
  return base.trim() || 'alignment';
}
