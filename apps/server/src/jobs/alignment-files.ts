// Where an alignment's files live: the store prefix users/<user>/alignments/<alignment>/, so deleting a
// user or an alignment is one prefix removal and the personal data export finds them all. The database
// keeps paths relative to the user's folder (`alignments/<id>/audio.wav`); UserFiles.key() maps them.
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { readStoredText } from '../storage/local-copy.ts';
import type { UserFiles } from '../storage/user-files.ts';

export const alignmentSubdir = (alignmentId: string): string => {
  if (!/^[A-Za-z0-9-]+$/.test(alignmentId)) throw new Error('unsafe alignment id');
  return `alignments/${alignmentId}`;
};

/** The stored relative path of one of an alignment's files. */
export const alignmentFile = (alignmentId: string, name: string): string =>
  `${alignmentSubdir(alignmentId)}/${name}`;

/** A stored relative path (from the user's folder) as a store key. */
export function userKey(files: UserFiles, userId: string, rel: string): string {
  return files.key(userId, rel);
}

export async function removeAlignmentFiles(files: UserFiles, userId: string, alignmentId: string) {
  await files.store.deletePrefix(`${files.prefix(userId)}${alignmentSubdir(alignmentId)}/`);
}

export async function readUserText(files: UserFiles, userId: string, rel: string): Promise<string> {
  return readStoredText(files.store, files.key(userId, rel));
}

export async function readResult(
  files: UserFiles,
  userId: string,
  rel: string | null,
): Promise<AlignmentResult | null> {
  if (!rel) return null;
  return JSON.parse(await readUserText(files, userId, rel)) as AlignmentResult;
}
