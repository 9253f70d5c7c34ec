// ffmpeg, ffprobe and the aligner read files by path. On the local disk the stored file is that path;
// on an object store the object is copied to a temp file first and removed afterwards.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { hostname } from 'node:os';
import { pipeline } from 'node:stream/promises';
import { LocalFileStore } from './storage.ts';
import type { FileStore, StoredObject } from './storage.ts';

// Temp names carry their writer: `<host>~<pid>~<uuid>`. At start a process removes the files of
// processes of its own host that are gone (killed mid-upload), while a live neighbour sharing DATA_DIR
// keeps its own; files of other hosts are left to the age rule (UserFiles.sweepTemp).
const TEMP_OWNER = `${hostname().replace(/[^\w.-]/g, '_')}~${process.pid}~`;

/** The host and pid a temp name was made by, or null for a name of another shape. */
export function tempOwner(name: string): { host: string; pid: number } | null {
  const m = /^([\w.-]+)~(\d+)~/.exec(name);
  return m ? { host: m[1]!, pid: Number(m[2]) } : null;
}

export const THIS_HOST = TEMP_OWNER.split('~')[0]!;

/** A fresh path inside `tmpDir` (created if needed); the caller removes the file. */
export async function tempPath(tmpDir: string, suffix = ''): Promise<string> {
  await mkdir(tmpDir, { recursive: true });
  return join(tmpDir, `${TEMP_OWNER}${randomUUID()}${suffix}`);
}

/** Runs `fn` with a local path holding the object's bytes; a downloaded copy is removed afterwards. */
export async function withLocalFile<T>(
  store: FileStore,
  key: string,
  tmpDir: string,
  fn: (path: string) => Promise<T>,
): Promise<T> {
  if (store instanceof LocalFileStore) return fn(store.path(key));
  const ext = /\.[A-Za-z0-9]{1,5}$/.exec(key)?.[0] ?? '';
  const path = await tempPath(tmpDir, ext);
  try {
    await pipeline(await store.get(key), createWriteStream(path));
    return await fn(path);
  } finally {
    await rm(path, { force: true });
  }
}

/**
 * Moves a finished local file into the store: a rename on the same disk (as before the store existed),
 * a copy across disks, an upload to an object store. The local file is gone afterwards either way,
 * unless `keepOnFailure`: then a failed move leaves it for the caller to try again (a rendered video
 * waiting for a full disk or a store that is away).
 */
export async function moveIntoStore(
  store: FileStore,
  key: string,
  path: string,
  options: { contentType?: string; keepOnFailure?: boolean } = {},
): Promise<StoredObject> {
  let moved = false;
  try {
    if (store instanceof LocalFileStore) {
      const target = store.path(key);
      await mkdir(dirname(target), { recursive: true });
      try {
        await rename(path, target);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
        // a separate mount for the files (a shared volume): copy to a temp name, then rename
        const partial = `${target}.${randomUUID()}.partial`;
        try {
          await copyFile(path, partial);
          await rename(partial, target);
        } catch (copyErr) {
          await rm(partial, { force: true });
          throw copyErr;
        }
      }
      moved = true;
      const s = await store.stat(key);
      if (!s) throw new Error(`${key} vanished after it was moved into the store`);
      return s;
    }
    const stored = await store.put(key, createReadStream(path), { contentType: options.contentType });
    moved = true;
    return stored;
  } finally {
    if (moved || !options.keepOnFailure) await rm(path, { force: true });
  }
}

export async function readStoredBytes(store: FileStore, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await store.get(key)) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks);
}

export async function readStoredText(store: FileStore, key: string): Promise<string> {
  return (await readStoredBytes(store, key)).toString('utf8');
}
