// A full disk is refused at the door: routes that write files answer 507 insufficient_storage while the
// free space of DATA_DIR's file system is under MIN_FREE_DISK_MB, before a byte of the body is read, so
// an upload never half-fills the disk and the database keeps room for sign-ins and job progress. The
// check reads the file system each time, so uploads resume by themselves once space is freed. It fails
// closed: a DATA_DIR not created yet is measured on the disk it will be created on, and a file system
// that cannot be read refuses the write (507) rather than letting it through unchecked.
import { statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { createError } from '../errors.ts';

/** Routes that store files (uploads, avatars, rendered videos, demo media), method and full URL. */
export const FILE_WRITING_ROUTES: readonly string[] = [
  'POST /api/alignments/',
  'POST /api/projects/:id/batch/',
  'POST /api/alignments/:id/video/',
  'POST /api/auth/avatar/',
  'POST /api/admin/demos/',
];

/**
 * A full disk as each layer reports it: SQLite (SQLITE_FULL, and SQLITE_IOERR_WRITE when the WAL cannot
 * grow), PostgreSQL (53100 disk_full) and the file system (ENOSPC, EDQUOT). Not a bug of ours: a 507 the
 * client may retry, and readiness reports it (routes/system).
 */
export function isDiskFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return (
    code === 'SQLITE_FULL' ||
    code === 'SQLITE_IOERR_WRITE' ||
    code === '53100' ||
    code === 'ENOSPC' ||
    code === 'EDQUOT'
  );
}

/** A full disk anywhere in the error's cause chain (a job handler may wrap the file system's error). */
export function diskFullIn(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    if (isDiskFull(e)) return true;
  return false;
}

/**
 * Bytes an unprivileged process may still write on the file system holding `dir`, or that will hold it
 * (the nearest folder above it that exists, when it does not exist yet).
 */
export async function freeBytes(dir: string): Promise<number> {
  for (let d = resolve(dir); ; d = dirname(d)) {
    try {
      const s = await statfs(d);
      return Number(s.bavail) * Number(s.bsize);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(d) === d) throw err;
    }
  }
}

export function refuseWritesWhenDiskLow(
  app: FastifyInstance,
  dir: string,
  /** read at each request: MIN_FREE_DISK_MB */
  minFreeBytes: () => number,
): void {
  const check: onRequestAsyncHookHandler = async (request) => {
    const margin = minFreeBytes();
    if (margin <= 0) return;
    let free: number;
    try {
      free = await freeBytes(dir);
    } catch (err) {
      // an unknown amount of space is not enough space: refused, and said why
      request.log.warn({ err }, 'upload refused: the free space of DATA_DIR could not be read');
      throw createError('insufficient_storage');
    }
    if (free < margin) {
      request.log.warn({ free, margin }, 'upload refused: disk almost full');
      throw createError('insufficient_storage');
    }
  };
  app.addHook('onRoute', (route) => {
    // a plugin's '/' route is announced without its trailing slash ('/api/alignments')
    const url = route.url.endsWith('/') ? route.url : `${route.url}/`;
    const methods = [route.method].flat();
    if (!methods.some((m) => FILE_WRITING_ROUTES.includes(`${m} ${url}`))) return;
    // after the route's own hooks: an anonymous caller still gets its 401 first
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [...existing, check];
  });
}

/** Bytes written between two looks at the free space while a request body streams to disk. */
const LOOK_EVERY_BYTES = 4 * 1024 * 1024;

/**
 * The door's check again while a body that may hold many files streams to disk (a batch's parts): every
 * few megabytes written, the free space must still be above the margin, else 507 before the disk fills.
 */
export function freeSpaceWatch(dir: string, minFreeBytes: number): (bytes: number) => Promise<void> {
  let sinceLook = 0;
  return async (bytes) => {
    if (minFreeBytes <= 0) return;
    sinceLook += bytes;
    if (sinceLook < LOOK_EVERY_BYTES) return;
    sinceLook = 0;
    let free: number;
    try {
      free = await freeBytes(dir);
    } catch {
      return; // as at the door: an unreadable DATA_DIR is the write's own failure to report
    }
    if (free < minFreeBytes) throw createError('insufficient_storage');
  };
}
