// An adapted model's folder in the file store: the files the engine wrote (mdef, means, variances,
// mixture_weights, transition_matrices, feat.params, tazamun-model.json) under
// `users/<user id>/models/<model id>/`, so an account's deletion and export take them with the rest.
// The engine reads a model from a local folder: on the local disk that is the stored folder itself; from
// an S3 bucket the worker fetches it once into DATA_DIR/cache/models/<model id>/ (a model's files never
// change: a new adaptation is a new model id) and keeps the most recently used there.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { MANIFEST } from '@tazamun/aligner/adapt';
import { LocalFileStore } from './storage.ts';
import type { UserFiles } from './user-files.ts';

const SAFE_ID = /^[A-Za-z0-9-]+$/;
/** Model folders the cache keeps beyond those used within CACHE_GRACE_MS. */
export const MODEL_CACHE_ENTRIES = 8;
/** A cached folder used this recently is never evicted (a job of this or another process may load it). */
const CACHE_GRACE_MS = 3_600_000;

function modelPrefix(files: UserFiles, userId: string, modelId: string): string {
  if (!SAFE_ID.test(modelId)) throw new Error('unsafe model id');
  return `${files.prefix(userId)}models/${modelId}/`;
}

/** Moves the folder's files into the store (each whole or nothing); returns the bytes stored. */
export async function storeModelDir(
  files: UserFiles,
  userId: string,
  modelId: string,
  dir: string,
): Promise<number> {
  const prefix = modelPrefix(files, userId, modelId);
  let bytes = 0;
  // the manifest last: a folder whose manifest is stored is whole
  const names = (await readdir(dir)).sort((a, b) => Number(a === MANIFEST) - Number(b === MANIFEST));
  for (const name of names) {
    const stored = await files.store.put(`${prefix}${name}`, createReadStream(join(dir, name)));
    bytes += stored.size;
  }
  return bytes;
}

/** Removes the model's files from the store (and this process's cached copy). */
export async function removeModelFiles(files: UserFiles, userId: string, modelId: string): Promise<void> {
  await files.store.deletePrefix(modelPrefix(files, userId, modelId));
  if (!(files.store instanceof LocalFileStore))
    await rm(join(files.modelCacheDir, modelId), { recursive: true, force: true });
}

/**
 * A local folder holding the model, for the engine: the stored folder on the local disk; a cached copy
 * of the bucket's objects otherwise (fetched whole into a temporary sibling, then renamed into place).
 * Null when the store holds no such model (deleted meanwhile).
 */
export async function localModelDir(
  files: UserFiles,
  userId: string,
  modelId: string,
): Promise<string | null> {
  const prefix = modelPrefix(files, userId, modelId);
  const store = files.store;
  if (store instanceof LocalFileStore) {
    const manifest = store.path(`${prefix}${MANIFEST}`);
    return (await stat(manifest).catch(() => null)) ? dirname(manifest) : null;
  }
  const dir = join(files.modelCacheDir, modelId);
  if (await stat(join(dir, MANIFEST)).catch(() => null)) {
    const now = new Date();
    await utimes(dir, now, now).catch(() => undefined);
    return dir;
  }
  const objects = await store.list(prefix);
  if (!objects.some((o) => o.key === `${prefix}${MANIFEST}`)) return null;
  await mkdir(files.modelCacheDir, { recursive: true });
  const partial = `${dir}.${randomUUID()}.partial`;
  await mkdir(partial);
  try {
    for (const o of objects)
      await pipeline(await store.get(o.key), createWriteStream(join(partial, o.key.slice(prefix.length))));
    await rm(dir, { recursive: true, force: true });
    await rename(partial, dir);
  } catch (err) {
    await rm(partial, { recursive: true, force: true });
    throw err;
  }
  await pruneModelCache(files.modelCacheDir, modelId);
  return dir;
}

/**
 * Keeps the cache to MODEL_CACHE_ENTRIES folders, the least recently used going first; a folder used
 * within the last hour (CACHE_GRACE_MS) stays whatever the count, and so does `keep`.
 */
export async function pruneModelCache(cacheDir: string, keep: string, now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await readdir(cacheDir);
  } catch {
    return 0;
  }
  // a fetch a crashed process left half done
  for (const n of names.filter((x) => x.endsWith('.partial'))) {
    const s = await stat(join(cacheDir, n)).catch(() => null);
    if (s && now - s.mtimeMs > CACHE_GRACE_MS) await rm(join(cacheDir, n), { recursive: true, force: true });
  }
  const entries = await Promise.all(
    names
      .filter((n) => SAFE_ID.test(n) && n !== keep)
      .map(async (n) => ({ n, s: await stat(join(cacheDir, n)).catch(() => null) })),
  );
  const dirs = entries
    .filter((e) => e.s?.isDirectory())
    .sort((a, b) => b.s!.mtimeMs - a.s!.mtimeMs)
    .slice(MODEL_CACHE_ENTRIES - 1);
  let removed = 0;
  for (const e of dirs) {
    if (now - e.s!.mtimeMs < CACHE_GRACE_MS) continue;
    await rm(join(cacheDir, e.n), { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
