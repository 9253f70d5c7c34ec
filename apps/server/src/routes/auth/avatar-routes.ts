// Avatars: the upload is decoded by sharp (so a renamed text file is refused), re-encoded as a
// 256x256 WebP and stored under the user's folder with a random name that doubles as cache buster.
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import sharp from 'sharp';
import { z } from 'zod';
import { User } from '@tazamun/contracts/auth';
import { LIMITS, MB } from '@tazamun/contracts/limits';
import { presentUser } from '../../accounts/present-user.ts';
import { createError } from '../../errors.ts';
import { findUserById, updateUser } from '../../db/users.ts';
import { auth, requireApproved } from '../../plugins/auth-guard.ts';

const AVATAR_SIZE = 256;
const ACCEPTED = 'PNG, JPEG, WebP, GIF, AVIF, TIFF';
const SIZE_LABEL = `${LIMITS.avatarMaxBytes / MB} MB`;

const ascii = (b: Buffer, start: number, end: number) => b.subarray(start, end).toString('latin1');

/**
 * The raster formats listed in ACCEPTED, recognised by their signature before sharp sees the bytes: sharp
 * (libvips) also decodes SVG (librsvg, which can fetch and parse more than an image should), PDF, HEIC,
 * FITS, raw pixel dumps... none of which is an avatar.
 */
export function avatarFormat(b: Buffer): 'png' | 'jpeg' | 'gif' | 'webp' | 'avif' | 'tiff' | null {
  if (b.length < 12) return null;
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return 'gif';
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'webp';
  if (ascii(b, 0, 4) === 'II*\0' || ascii(b, 0, 4) === 'MM\0*') return 'tiff';
  if (ascii(b, 4, 8) === 'ftyp') {
    // ISO BMFF: the major brand, then compatible brands up to the end of the ftyp box
    const boxEnd = Math.min(b.readUInt32BE(0), b.length, 64);
    const brands = [ascii(b, 8, 12)];
    for (let i = 16; i + 4 <= boxEnd; i += 4) brands.push(ascii(b, i, i + 4));
    if (brands.includes('avif') || brands.includes('avis')) return 'avif';
  }
  return null;
}

// what sharp reports for each signature above (AVIF is a HEIF container with AV1 inside)
const SHARP_FORMAT = { png: 'png', jpeg: 'jpeg', gif: 'gif', webp: 'webp', avif: 'heif', tiff: 'tiff' };

async function toAvatar(input: Buffer): Promise<Buffer> {
  const format = avatarFormat(input);
  if (!format) throw createError('file_type_invalid', { formats: ACCEPTED });
  try {
    const image = sharp(input, { limitInputPixels: 50_000_000, failOn: 'error' });
    // the signature and the decoder must agree (a PNG signature glued onto another format)
    if ((await image.metadata()).format !== SHARP_FORMAT[format]) throw new Error('format mismatch');
    return await image
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'attention' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw createError('file_type_invalid', { formats: ACCEPTED });
  }
}

export const avatarRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.post(
    '/avatar/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['profile'],
        summary: `Upload an avatar (multipart field "avatar" or any file field, at most ${SIZE_LABEL})`,
        consumes: ['multipart/form-data'],
        response: { 200: User },
      },
    },
    async (request) => {
      const { user } = auth(request);
      if (!request.isMultipart())
        throw createError('bad_request', {}, { avatar: ['This field is required.'] });
      const file = await request.file({ limits: { fileSize: LIMITS.avatarMaxBytes, files: 1 } });
      if (!file) throw createError('validation_error', {}, { avatar: ['This field is required.'] });
      let input: Buffer;
      try {
        input = await file.toBuffer();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw createError('file_too_large', { size: SIZE_LABEL });
        }
        throw err;
      }
      const webp = await toAvatar(input);
      const name = `${randomBytes(12).toString('hex')}.webp`;
      const key = deps.files.key(user.id, `avatar/${name}`);
      await deps.files.store.put(key, webp, { contentType: 'image/webp' });
      try {
        await updateUser(deps.db, user.id, { avatar_file: name, updated_at: deps.clock.now().toISOString() });
      } catch (err) {
        await deps.files.store.delete(key); // the row failed: do not leave an orphan file
        throw err;
      }
      if (user.avatar_file)
        await deps.files.store.delete(deps.files.key(user.id, `avatar/${user.avatar_file}`));
      return presentUser(deps, (await findUserById(deps.db, user.id))!);
    },
  );

  app.delete(
    '/avatar/',
    {
      onRequest: requireApproved,
      schema: { tags: ['profile'], summary: 'Remove the avatar', response: { 200: User } },
    },
    async (request) => {
      const { user } = auth(request);
      if (user.avatar_file) {
        await updateUser(deps.db, user.id, { avatar_file: null, updated_at: deps.clock.now().toISOString() });
        await deps.files.store.delete(deps.files.key(user.id, `avatar/${user.avatar_file}`));
      }
      return presentUser(deps, (await findUserById(deps.db, user.id))!);
    },
  );

  // Public on purpose: <img> cannot send a bearer token, and the random file name is not guessable.
  app.get(
    '/avatar/:userId/:file',
    {
      schema: {
        tags: ['profile'],
        security: [],
        summary: 'An avatar image (WebP)',
        params: z.object({
          userId: z.string().regex(/^[A-Za-z0-9-]+$/),
          file: z.string().regex(/^[a-f0-9]{24}\.webp$/),
        }),
      },
    },
    async (request, reply) => {
      const { userId, file } = request.params;
      const user = await findUserById(deps.db, userId);
      if (!user || user.avatar_file !== file) throw createError('not_found');
      const key = deps.files.key(userId, `avatar/${file}`);
      const info = await deps.files.store.stat(key);
      if (!info) throw createError('not_found');
      return reply
        .type('image/webp')
        .header('content-length', info.size)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(await deps.files.store.get(key));
    },
  );
};
