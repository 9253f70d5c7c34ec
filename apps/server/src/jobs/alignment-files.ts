// Where an alignment's files live: DATA_DIR/files/users/<user>/alignments/<alignment>/, so deleting a
// user or an alignment is one directory removal and the personal data export finds them all.
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import type { UserFiles } from '../storage/user-files.ts';

export const alignmentSubdir = (alignmentId: string): string => join('alignments', alignmentId);

export function alignmentDir(files: UserFiles, userId: string, alignmentId: string): string {
  if (!/^[A-Za-z0-9-]+$/.test(alignmentId)) throw new Error('unsafe alignment id');
  return join(files.root(userId), alignmentSubdir(alignmentId));
}

/** A stored relative path (from the user's root) back to an absolute one. */
export function userPath(files: UserFiles, userId: string, rel: string): string {
  if (rel.includes('..')) throw new Error('unsafe stored path');
  return join(files.root(userId), rel);
}

export async function removeAlignmentFiles(files: UserFiles, userId: string, alignmentId: string) {
  await rm(alignmentDir(files, userId, alignmentId), { recursive: true, force: true });
}

/** Write then rename, so a reader never sees half a file and a crash leaves the old one. */
export async function writeAtomic(path: string, content: string | Buffer): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, content);
  await rename(tmp, path);
}

export async function readResult(
  files: UserFiles,
  userId: string,
  rel: string | null,
): Promise<AlignmentResult | null> {
  if (!rel) return null;
  return JSON.parse(await readFile(userPath(files, userId, rel), 'utf8')) as AlignmentResult;
}
