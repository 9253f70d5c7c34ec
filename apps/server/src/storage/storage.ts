// Where files live, behind one interface: the local disk under DATA_DIR/files (the default, also a
// shared volume in the scaled shape) or an S3-compatible bucket (storage/s3-file-store.ts). Keys are
// relative, slash-separated paths such as `users/<id>/alignments/<id>/audio.wav`; they are checked here
// once, so no caller can reach outside the store whatever a file name contains.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredObject {
  key: string;
  size: number;
  modified: Date;
}

export interface FileStore {
  /** Writes the whole body or nothing: a failed write (disk full, aborted stream) leaves no object. */
  put(key: string, body: Readable | Buffer, options?: { contentType?: string }): Promise<StoredObject>;
  /**
   * A stream of the object's bytes (or of the inclusive byte range, for the player's seeks); rejects
   * with a StorageNotFound error when absent.
   */
  get(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<StoredObject | null>;
  /** Objects whose key starts with `prefix` (a folder prefix ends with "/"), sorted by key. */
  list(prefix: string): Promise<StoredObject[]>;
  /** Removes one object; absent objects are not an error. */
  delete(key: string): Promise<void>;
  /** Removes every object under a folder prefix (account deletion). */
  deletePrefix(prefix: string): Promise<void>;
}

/** Inclusive, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export class StorageNotFound extends Error {
  readonly code = 'ENOENT';
  constructor(readonly key: string) {
    super(`no stored object ${key}`);
  }
}

const SEGMENT = /^[^/\\]+$/;

/** Throws on keys that could escape the store: absolute, `..`, empty segments, backslashes, NUL. */
export function checkKey(key: string, { prefix = false } = {}): string {
  const body = prefix && key.endsWith('/') ? key.slice(0, -1) : key;
  if (body === '' && prefix) return key;
  const ok =
    body.length > 0 &&
    body.length <= 1024 &&
    body.split('/').every((s) => SEGMENT.test(s) && s !== '.' && s !== '..') &&
    // control characters have no business in a storage key
    ![...body].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (!ok) throw new Error(`unsafe storage key ${JSON.stringify(key)}`);
  return key;
}

/** The local disk. Writes go to a temp name in the same folder and are renamed into place. */
export class LocalFileStore implements FileStore {
  constructor(readonly root: string) {}

  path(key: string): string {
    return join(this.root, ...checkKey(key).split('/'));
  }

  async put(key: string, body: Readable | Buffer): Promise<StoredObject> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    const temp = `${target}.${randomUUID()}.partial`;
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(temp));
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    const s = await stat(target);
    return { key, size: s.size, modified: s.mtime };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const p = this.path(key);
    if (!(await this.stat(key))) throw new StorageNotFound(key);
    return createReadStream(p, range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const s = await stat(this.path(key));
      return s.isFile() ? { key, size: s.size, modified: s.mtime } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async list(prefix: string): Promise<StoredObject[]> {
    checkKey(prefix, { prefix: true });
    // Walk the deepest folder the prefix names, then filter by the rest of the prefix.
    const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    const start = folder ? join(this.root, ...folder.split('/')) : this.root;
    const out: StoredObject[] = [];
    const walk = async (d: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(d, { withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
      for (const e of entries) {
        const abs = join(d, e.name);
        if (e.isDirectory()) await walk(abs);
        else if (e.isFile() && !e.name.endsWith('.partial')) {
          const key = relative(this.root, abs).split(sep).join('/');
          if (!key.startsWith(prefix)) continue;
          const s = await stat(abs);
          out.push({ key, size: s.size, modified: s.mtime });
        }
      }
    };
    await walk(start);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    if (!prefix.endsWith('/') || prefix === '/')
      throw new Error('deletePrefix takes a folder prefix ending in "/"');
    await rm(join(this.root, ...checkKey(prefix.slice(0, -1)).split('/')), { recursive: true, force: true });
  }
}
