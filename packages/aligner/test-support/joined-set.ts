// An eval set's recordings joined end to end into one long recording (the long path), with its text and
// the reference word times moved by each recording's place (the bench's joinRecordings). Fails loudly when
// the set is absent.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { joinRecordings, readSet } from '../src/bench/common.ts';
import type { JoinedRecording } from '../src/bench/common.ts';
import { evalDir } from './eval-dir.ts';

/** The utterances of an eval set, in name order; fails loudly when the set is absent. */
export function evalSet(set: string): ReturnType<typeof readSet> {
  const dir = join(evalDir(), set);
  assert.ok(existsSync(dir), `eval set missing: ${dir}`);
  return readSet(dir);
}

/**
 * The set's recordings in name order, `readings` times over. `textLeftOut(i, count)`: the i-th of the
 * `count` recordings is in the audio but its text and reference words are not (speech the transcript
 * leaves out).
 */
export async function joinedSet(
  set: string,
  opts: Parameters<typeof joinRecordings>[1] = {},
): Promise<JoinedRecording> {
  return joinRecordings(evalSet(set), opts);
}

/**
 * A `textLeftOut` for joinedSet: the `n` recordings from a quarter, half and three quarters of the way in
 * are left out of the text (speech the transcript lacks at three places).
 */
export function leftOutAtThreePlaces(n: number): (i: number, count: number) => boolean {
  return (i, count) =>
    [0.25, 0.5, 0.75].some((f) => i >= Math.floor(f * count) && i < Math.floor(f * count) + n);
}
