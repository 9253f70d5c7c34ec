// A long recording whose transcript lacks sentences: the Arabic synthetic set (125 s, the long path) with
// one sentence's text left out at a quarter, half and three quarters of it. The first pass placed the next
// words on that speech and every later window started ahead of its speech: the text ran out 32 s before
// the speech, 28 % of the words within half a second of their place, verdict mismatch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { align } from '../engine.ts';
import { decodeAudio } from '../audio/decode.ts';
import { evalDir } from '@tazamun/aligner/testing/eval-dir';

test('a long recording whose text lacks a sentence at three places: the words after each are placed where they are said', async () => {
  const dir = join(evalDir(), 'ar-synthetic');
  assert.ok(existsSync(dir), `eval set missing: ${dir}`);
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const left = [0.25, 0.5, 0.75].map((f) => Math.floor(f * names.length));
  const parts: Float32Array[] = [];
  const ref: { start: number; end: number }[] = [];
  const lines: string[] = [];
  let at = 0;
  for (const [i, name] of names.entries()) {
    const r = JSON.parse(readFileSync(join(dir, name), 'utf8')) as {
      text: string;
      words: { start: number; end: number }[];
    };
    const x = (await decodeAudio(join(dir, name.replace(/\.json$/, '.wav')))).samples;
    if (!left.includes(i)) {
      for (const w of r.words) ref.push({ start: w.start + at / 16000, end: w.end + at / 16000 });
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
  assert.ok(at / 16000 > 100, `${at / 16000} s`);
  const res = await align(samples, lines.join('\n'), { lang: 'ar' });
  assert.equal(res.words.length, ref.length);
  const placed = res.words.filter((w) => w.start !== null);
  const last = placed[placed.length - 1]!;
  assert.ok(
    Math.abs(last.end! - ref[ref.length - 1]!.end) < 1,
    `the last word ends at ${last.end}, its reference at ${ref[ref.length - 1]!.end}`,
  );
  const near = res.words.filter((w, i) => w.start !== null && Math.abs(w.start - ref[i]!.start) < 0.5);
  assert.ok(near.length >= 0.75 * ref.length, `${near.length} of ${ref.length} words within 0.5 s`);
  assert.equal(res.quality.verdict, 'partial');
  assert.ok(res.quality.reasons.some((r) => r.code === 'untranscribed_speech'));
});
