// The front end against soundswallower's own (the reference decoder's `spectrogram`, which returns the
// log mel spectrum its search computes cepstra from), on the same audio: both models' settings, with and
// without noise removal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import createModule from 'soundswallower';
import { FrontEnd, frameCount, frameGeometry } from './mfcc.ts';
import { batchCmn, computeFeatures, deltas } from './features.ts';
import { parseFeatParams } from '../model/acoustic-model.ts';
import { resolveHmmModel } from '../models.ts';
import { readWavAtRate } from '../../../audio/wav.ts';
import { evalDir } from '../../../../test-support/eval-dir.ts';
import { nativeAddon, nativeAddonMissing } from '../../../native/addon.ts';

const WAV = `${evalDir()}/timit-dev/dr1-fvmh0_sa1.wav`;

for (const band of ['full', 'narrow'] as const) {
  test(`log mel spectra equal soundswallower's within 1e-5 (${band}-band English model)`, async () => {
    const spec = resolveHmmModel('en', band);
    const ss = await createModule();
    const d = new ss.Decoder({
      hmm: spec.hmm,
      featparams: spec.featParams,
      dict: spec.dict,
      samprate: 16000,
      loglevel: 'FATAL',
    });
    await d.initialize();
    const { samples } = readWavAtRate(WAV, 16000)!;
    const ref = d.spectrogram(samples);
    const settings = parseFeatParams(readFileSync(spec.featParams, 'utf8'));
    // soundswallower's default for noise removal when the parameters do not name it is off
    settings.removeNoise = Boolean(d.get_config('remove_noise'));
    const fe = new FrontEnd(settings);
    const mine = fe.logMel(samples);
    assert.equal(fe.frames(samples.length), ref.nfr);
    assert.equal(settings.nfilt, ref.nfeat);
    let max = 0;
    for (let i = 0; i < mine.length; i++) max = Math.max(max, Math.abs(mine[i]! - ref.data[i]!));
    assert.ok(max < 1e-5, `largest difference ${max}`);
    d.delete();
  });
}

test("the native module's spectra are the JavaScript front end's to the bit, on both models, noise removal on and off", () => {
  assert.ok(nativeAddon(), `the native module is not built: ${nativeAddonMissing()}`);
  const { samples } = readWavAtRate(WAV, 16000)!;
  // a short and an odd length too (the last frame zero-padded), and silence
  const inputs = [
    samples,
    samples.subarray(0, 9_999),
    samples.subarray(1_234, 1_800),
    new Float32Array(3_000),
  ];
  let compared = 0;
  for (const lang of ['en', 'fr'] as const)
    for (const band of ['full', 'narrow'] as const)
      for (const removeNoise of [false, true]) {
        const spec = resolveHmmModel(lang, band);
        const settings = { ...parseFeatParams(readFileSync(spec.featParams, 'utf8')), removeNoise };
        const native = new FrontEnd(settings);
        const js = new FrontEnd(settings, { native: false });
        for (const x of inputs) {
          assert.deepEqual(
            native.logMel(x),
            js.logMel(x),
            `${spec.id}, noise removal ${removeNoise}, ${x.length}`,
          );
          compared++;
        }
      }
  assert.equal(compared, 32);
});

test('frames: the full ones, then one partial frame for the samples left over', () => {
  const g = frameGeometry(parseFeatParams('-lowerf 130\n-upperf 6800\n-nfilt 25\n'));
  assert.deepEqual(g, { size: 410, shift: 160, nfft: 512 });
  assert.equal(frameCount(g, 0), 0);
  assert.equal(frameCount(g, 100), 1);
  assert.equal(frameCount(g, 410), 2);
  assert.equal(frameCount(g, 54682), 341);
});

test('batch CMN leaves out frames whose c0 is negative, and features are c, d, dd over 3 streams', () => {
  // two frames, c0 = 10 and -5 (the second does not count in the mean), other coefficients 1 and 3
  const cep = Float32Array.from([10, 1, 1, -5, 3, 3]);
  batchCmn(cep, 3, false);
  assert.deepEqual(Array.from(cep), [0, 0, 0, -15, 2, 2]);
  const d = deltas(Float32Array.from([0, 1, 2, 3, 4, 5, 6]), 1);
  // frame 3: c = 3, d = c[5] - c[1] = 4, dd = (c[6] - c[2]) - (c[4] - c[0]) = 0
  assert.deepEqual(Array.from(d.subarray(9, 12)), [3, 4, 0]);
  const f = computeFeatures(
    new Float32Array(13 * 5).fill(1),
    parseFeatParams('-svspec 0-12/13-25/26-38\n-cmn batch\n'),
    [13, 13, 13],
  );
  assert.equal(f.nFrames, 5);
  assert.equal(f.streams.length, 3);
  assert.ok(f.streams.every((s) => s.every((x) => x === 0)));
});
