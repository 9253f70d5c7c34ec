// Reads a batch upload's zip with yauzl, from its central directory, refusing hostile archives before
// anything is inflated: too many entries, more uncompressed bytes than a batch may hold, an entry that
// inflates too many times its stored size (a zip bomb), paths that leave the archive (../, absolute,
// backslashes: yauzl rejects them) and encrypted entries. Entries are never written under their own
// names: audio goes to a temp file of ours and text stays in memory, so a hostile name has nowhere to go.
import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import { BATCH_LIMITS } from '@tazamun/contracts/projects';
import { createError } from '../errors.ts';

export interface ZipLimits {
  maxEntries: number;
  maxUncompressedBytes: number;
  maxCompressionRatio: number;
}

/** Below this size an entry's ratio is not judged: a short, repetitive text legitimately packs well. */
const RATIO_FLOOR_BYTES = 1024 * 1024;

export class CorpusZip {
  private constructor(
    private readonly zip: ZipFile,
    readonly entries: Map<string, Entry>,
  ) {}

  static async open(path: string, limits: ZipLimits = BATCH_LIMITS): Promise<CorpusZip> {
    let zip: ZipFile;
    try {
      zip = await new Promise<ZipFile>((resolve, reject) =>
        yauzl.open(path, { lazyEntries: true, autoClose: false, strictFileNames: true }, (err, z) =>
          err ? reject(err) : resolve(z),
        ),
      );
    } catch {
      throw createError('archive_invalid', {}, { archive: ['This value is invalid: not a zip file.'] });
    }
    try {
      if (zip.entryCount > limits.maxEntries)
        throw unsafe(`too many entries (${zip.entryCount}, at most ${limits.maxEntries})`);
      const entries = await readDirectory(zip, limits);
      return new CorpusZip(zip, entries);
    } catch (err) {
      zip.close();
      throw err;
    }
  }

  /** The entry inflated into `dest`; yauzl holds it to the size its header declares. */
  async extractTo(name: string, dest: string): Promise<void> {
    await pipeline(await this.stream(name), createWriteStream(dest)).catch(sizeLie);
  }

  /**
   * The entry inflated into memory, or null when it holds more than `maxBytes`: judged by its header
   * first (nothing is inflated), then counted while inflating, so a lying header stops at the cap too.
   */
  async read(name: string, maxBytes: number): Promise<Buffer | null> {
    if (this.size(name) > maxBytes) return null;
    const chunks: Buffer[] = [];
    let size = 0;
    const stream = await this.stream(name);
    try {
      for await (const c of stream) {
        size += (c as Buffer).length;
        if (size > maxBytes) {
          stream.destroy();
          return null;
        }
        chunks.push(c as Buffer);
      }
    } catch (err) {
      sizeLie(err);
    }
    return Buffer.concat(chunks);
  }

  size(name: string): number {
    return this.entries.get(name)?.uncompressedSize ?? 0;
  }

  close(): void {
    this.zip.close();
  }

  private async stream(name: string): Promise<Readable> {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`no entry ${name}`);
    return new Promise<Readable>((resolve, reject) =>
      this.zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))),
    );
  }
}

/** yauzl stops an entry that inflates past (or short of) its declared size: a hostile archive. */
function sizeLie(err: unknown): never {
  if (err instanceof Error && /too many bytes|not enough bytes|bytes in the stream/i.test(err.message))
    throw unsafe('an entry holds more than its header declares');
  throw err;
}

function unsafe(reason: string) {
  return createError('archive_unsafe', { reason }, { archive: [`This value is invalid: ${reason}.`] });
}

function readDirectory(zip: ZipFile, limits: ZipLimits): Promise<Map<string, Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Entry>();
    let total = 0;
    const fail = (err: unknown) => {
      zip.removeAllListeners();
      zip.on('error', () => undefined); // the first error decided; later ones have no one to tell
      reject(err);
    };
    zip.on('error', (err: Error) => {
      // yauzl's own name checks (strictFileNames): "invalid relative path", "absolute path", backslashes
      if (/relative path|absolute path|invalid characters/i.test(err.message))
        fail(unsafe('an entry’s path leaves the archive'));
      else fail(createError('archive_invalid', {}, { archive: ['This value is invalid: not a zip file.'] }));
    });
    zip.on('entry', (entry: Entry) => {
      const name = entry.fileName;
      if (name.endsWith('/')) return zip.readEntry();
      if (entry.isEncrypted()) return fail(unsafe('encrypted entries are not supported'));
      total += entry.uncompressedSize;
      if (total > limits.maxUncompressedBytes)
        return fail(
          unsafe(`the files inflate to more than ${Math.round(limits.maxUncompressedBytes / 2 ** 20)} MB`),
        );
      if (
        entry.uncompressedSize > RATIO_FLOOR_BYTES &&
        entry.uncompressedSize > limits.maxCompressionRatio * Math.max(1, entry.compressedSize)
      )
        return fail(unsafe(`an entry inflates more than ${limits.maxCompressionRatio} times its size`));
      entries.set(name, entry);
      zip.readEntry();
    });
    zip.on('end', () => {
      zip.removeAllListeners('entry');
      resolve(entries);
    });
    zip.readEntry();
  });
}
