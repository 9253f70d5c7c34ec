// Every file that belongs to a user lives under the key prefix `users/<user id>/` of the FileStore (the
// local disk under DATA_DIR/files by default, or an S3-compatible bucket), so deleting or exporting an
// account is one prefix. Work files that tools need on disk go to DATA_DIR/tmp and are removed after use.
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { LocalFileStore, checkKey } from './storage.ts';
import type { FileStore } from './storage.ts';
import { S3FileStore } from './s3-file-store.ts';
import { THIS_HOST, tempOwner } from './local-copy.ts';
import type { S3StoreConfig } from './s3-file-store.ts';

const SAFE_ID = /^[A-Za-z0-9-]+$/;

/** Signal 0 checks for a process without touching it; EPERM means it exists under another user. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The store a deployment configured: S3 when S3_BUCKET is set, else the local disk. */
export function createFileStore(dataDir: string, s3: S3StoreConfig | null): FileStore {
  return s3 ? new S3FileStore(s3) : new LocalFileStore(join(dataDir, 'files'));
}

export class UserFiles {
  /** Temp files for uploads in flight and for tools that read by path (ffprobe, ffmpeg, the aligner). */
  readonly tmpDir: string;
  /** Adapted models fetched from an object store for the engine (storage/model-files.ts). */
  readonly modelCacheDir: string;

  constructor(
    dataDir: string,
    /** createFileStore(config.dataDir, config.s3) in the entry points */
    readonly store: FileStore,
  ) {
    this.tmpDir = join(dataDir, 'tmp');
    this.modelCacheDir = join(dataDir, 'cache', 'models');
  }

  prefix(userId: string): string {
    if (!SAFE_ID.test(userId)) throw new Error('unsafe user id');
    return `users/${userId}/`;
  }

  /** A path stored in the database (relative to the user's folder) as a store key. */
  key(userId: string, rel: string): string {
    return checkKey(this.prefix(userId) + rel);
  }

  async removeAll(userId: string): Promise<void> {
    await this.store.deletePrefix(this.prefix(userId));
  }

  /** Keys and paths relative to the user's folder, for the personal data export. */
  async list(userId: string): Promise<{ path: string; key: string; size: number }[]> {
    const prefix = this.prefix(userId);
    const objects = await this.store.list(prefix);
    return objects
      .map((o) => ({ path: o.key.slice(prefix.length), key: o.key, size: o.size }))
      .sort((a, b) => a.path.localeCompare(b.path));
  }

  /**
   * Removes temp files a crashed process left behind: at once those of a process of this host that is
   * gone (a partial upload of a killed server), otherwise only old ones, as with a shared DATA_DIR
   * another process may be writing a fresh one right now. Returns how many entries went.
   */
  async sweepTemp(maxAgeMs = 24 * 3_600_000, now = Date.now()): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.tmpDir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const p = join(this.tmpDir, name);
      const owner = tempOwner(name);
      const orphan = owner !== null && owner.host === THIS_HOST && !processAlive(owner.pid);
      const s = await stat(p).catch(() => null);
      if (s && (orphan || now - s.mtimeMs > maxAgeMs)) {
        await rm(p, { recursive: true, force: true });
        removed += 1;
      }
    }
    return removed;
  }
}
