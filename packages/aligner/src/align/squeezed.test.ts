// Short words squeezed out between neighbours that touch (clean TIMIT speech): searched for again locally.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { evalDir } from '@tazamun/aligner/testing/eval-dir';
import { align } from '../engine.ts';

const ref = (uid: string) =>
  JSON.parse(readFileSync(join(evalDir(), 'timit-dev', `${uid}.json`), 'utf8')) as {
    text: string;
    words: { w: string; start: number; end: number }[];
  };

test('a short word the neighbours had taken between them is placed where it was said', async () => {
  // "has taken the initiative", "ran away on a": the first search gave the neighbours all of the word
  for (const [uid, word] of [
    ['dr1-fvmh0_si836', 'the'],
    ['dr1-fvmh0_si2096', 'on'],
  ] as const) {
    const r = ref(uid);
    const res = await align(join(evalDir(), 'timit-dev', `${uid}.wav`), r.text, {
      lang: 'eng',
      precision: 'standard',
      recognition: false,
    });
    assert.ok(
      res.words.every((w) => w.status === 'aligned'),
      `${uid}: not found: ${res.words.filter((w) => w.status !== 'aligned').map((w) => w.word)}`,
    );
    const i = r.words.findIndex((w) => w.w.toLowerCase() === word);
    const got = res.words[i]!;
    assert.equal(got.word.toLowerCase().replace(/[^a-z]/g, ''), word);
    assert.ok(
      Math.abs(got.start! - r.words[i]!.start) < 0.05,
      `${word} starts at ${got.start}, said at ${r.words[i]!.start}`,
    );
    assert.ok(
      Math.abs(got.end! - r.words[i]!.end) < 0.05,
      `${word} ends at ${got.end}, said until ${r.words[i]!.end}`,
    );
    for (let k = 1; k < res.words.length; k++)
      assert.ok(res.words[k]!.start! >= res.words[k - 1]!.end! - 1e-6);
  }
});
