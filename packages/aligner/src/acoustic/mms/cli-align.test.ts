// `tazamun align` through the real CLI (bin/tazamun.mjs, the engine's dispatch) with the tiny stand-in
// model installed in TAZAMUN_MODELS_DIR as `models pull` leaves it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { installTinyModel, speakWords } from '@tazamun/aligner/testing/tiny-model';
import { rawF32ToWav } from '../../audio/decode.ts';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '../../..');

function withModels(t: { after: (fn: () => void) => void }): NodeJS.ProcessEnv {
  const dir = mkdtempSync(join(tmpdir(), 'tz-mms-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  installTinyModel(join(dir, 'mms'));
  return { ...process.env, TAZAMUN_MODELS_DIR: dir };
}

test('CLI: `tazamun align --engine mms`, and `auto` picks mms for Arabic when it is installed', (t) => {
  const env = withModels(t);
  const dir = mkdtempSync(join(tmpdir(), 'tz-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const toWav = (audio: Float32Array, name: string): string => {
    const raw = join(dir, `${name}.f32`);
    writeFileSync(raw, Buffer.from(audio.buffer));
    const wav = join(dir, `${name}.wav`);
    rawF32ToWav(raw, wav);
    return wav;
  };
  const cli = (args: string[]): AlignmentResult => {
    const out = join(dir, 'out.json');
    execFileSync(process.execPath, [join(pkg, 'bin/tazamun.mjs'), 'align', ...args, '-o', out], {
      env,
      stdio: 'pipe',
    });
    return AlignmentResult.parse(JSON.parse(readFileSync(out, 'utf8')));
  };
  writeFileSync(join(dir, 'en.txt'), 'good morning friend');
  const en = cli([
    toWav(speakWords(['good', 'morning', 'friend']).audio, 'en'),
    join(dir, 'en.txt'),
    '--lang',
    'eng',
    '--engine',
    'mms',
  ]);
  assert.equal(en.engine.backend, 'mms');
  assert.deepEqual(
    en.words.map((w) => w.status),
    ['aligned', 'aligned', 'aligned'],
  );
  writeFileSync(join(dir, 'ar.txt'), 'كتاب جديد');
  const ar = cli([toWav(speakWords(['كتاب', 'جديد']).audio, 'ar'), join(dir, 'ar.txt'), '--lang', 'ara']);
  assert.equal(ar.engine.backend, 'mms');
  assert.match(ar.warnings.join(' '), /auto: mms/);
  assert.equal(ar.metrics.coverage, 1);
});
