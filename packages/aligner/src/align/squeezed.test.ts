// Short words squeezed out between neighbours that touch (clean TIMIT speech): searched for again locally.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { evalDir } from '@tazamun/aligner/testing/eval-dir';
import { joinedSet } from '@tazamun/aligner/testing/joined-set';
import { align } from '../engine.ts';
import { onThreads } from '@tazamun/aligner/testing/thread-jobs';

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

test('words left out of a long recording, on two threads: their searches are shared, the result is one thread’s', async () => {
  // timit-dev joined (233 s, the two-pass path): a few short words squeezed out between neighbours and a
  // run forced in. Their searches go to the piece thread while this one judges them in turn (on the
  // 3-hour file 3.5 s on one thread after the pieces were done, while the other thread waited).
  const { samples, text } = await joinedSet('timit-dev');
  const one = await align(samples, text, { lang: 'en', threads: 1, recognition: false });
  // the searches without the garbage path (this file's only ones) handed to the other thread (five or so:
  // how many it starts before this thread takes the rest back depends on timing, and under load it may be
  // none)
  const { result: two, given: shared } = await onThreads(
    (job) => (job.garbage ? 0 : 1),
    () => align(samples, text, { lang: 'en', threads: 2, recognition: false }),
  );
  assert.ok(shared > 0, 'none of the searches was handed to the other thread');
  assert.deepEqual(
    two.words.map((w) => [w.start, w.end, w.confidence]),
    one.words.map((w) => [w.start, w.end, w.confidence]),
  );
});
