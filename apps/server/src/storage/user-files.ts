// Every file that belongs to a user lives under DATA_DIR/files/users/<user id>/, so deleting or
// exporting an account is one directory walk. Alignment uploads and results go under the same root.
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { LocalFileStore } from './storage.ts';
import type { FileStore } from './storage.ts';

export class UserFiles {
  /**
   * The same files as keys (`users/<id>/…`) behind the FileStore interface, so code moved onto it runs
   * unchanged on an S3-compatible store. The path-based methods below remain for the local disk.
   */
  readonly store: FileStore;

  constructor(
    private readonly dataDir: string,
    store?: FileStore,
  ) {
    this.store = store ?? new LocalFileStore(join(dataDir, 'files'));
  }

  root(userId: string): string {
    if (!/^[A-Za-z0-9-]+$/.test(userId)) throw new Error('unsafe user id');
    return join(this.dataDir, 'files', 'users', userId);
  }

  async dir(userId: string, ...sub: string[]): Promise<string> {
    const d = join(this.root(userId), ...sub);
    await mkdir(d, { recursive: true });
    return d;
  }

  async removeAll(userId: string): Promise<void> {
    await rm(this.root(userId), { recursive: true, force: true });
  }

  /** Paths relative to the user's root, for the personal data export. */
  async list(userId: string): Promise<{ path: string; abs: string; size: number }[]> {
    const root = this.root(userId);
    const out: { path: string; abs: string; size: number }[] = [];
    const walk = async (d: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(d, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const abs = join(d, e.name);
        if (e.isDirectory()) await walk(abs);
        else if (e.isFile()) out.push({ path: relative(root, abs), abs, size: (await stat(abs)).size });
      }
    };
    await walk(root);
    return out.sort((a, b) => a.path.localeCompare(b.path));
  }
}
