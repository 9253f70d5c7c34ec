// An eval set's recordings joined end to end into one long recording (the long path), with its text and
// the reference word times moved by each recording's place. Fails loudly when the set is absent.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { decodeAudio } from '../src/audio/decode.ts';
import { evalDir } from './eval-dir.ts';

export interface JoinedSet {
  samples: Float32Array;
  /** the text of the recordings kept in it, one line each */
  text: string;
  /** their reference words, in the joined recording's time */
  ref: { w: string; start: number; end: number }[];
}

/**
 * The set's recordings in name order, `readings` times over. `textLeftOut(i, count)`: the i-th of the
 * `count` recordings is in the audio but its text and reference words are not (speech the transcript
 * leaves out).
 */
export async function joinedSet(
  set: string,
  opts: { readings?: number; textLeftOut?: (i: number, count: number) => boolean } = {},
): Promise<JoinedSet> {
  const dir = join(evalDir(), set);
  assert.ok(existsSync(dir), `eval set missing: ${dir}`);
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const parts: Float32Array[] = [];
  const ref: JoinedSet['ref'] = [];
  const lines: string[] = [];
  const count = names.length * (opts.readings ?? 1);
  let at = 0;
  let i = 0;
  for (let reading = 0; reading < (opts.readings ?? 1); reading++)
    for (const name of names) {
      const r = JSON.parse(readFileSync(join(dir, name), 'utf8')) as {
        text: string;
        words: { w: string; start: number; end: number }[];
      };
      const x = (await decodeAudio(join(dir, name.replace(/\.json$/, '.wav')))).samples;
      if (!opts.textLeftOut?.(i++, count)) {
        for (const w of r.words) ref.push({ w: w.w, start: w.start + at / 16000, end: w.end + at / 16000 });
        lines.push(r.text);
      }
      parts.push(x);
      at += x.length;
    }
  const samples = new Float32Array(at);
  let o = 0;
  for (const p of parts) {
    samples.set(p, o);
    o += p.length;
  }
  return { samples, text: lines.join('\n'), ref };
}
