// The Gaussian kernels against each other on real features: the native kernel's and onnxruntime's must
// keep the same four densities as the double-precision JavaScript kernel, with log-likelihoods within
// float32 rounding, and the native kernel's vector path must give its scalar path's bits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FrontEnd } from '../frontend/mfcc.ts';
import { computeFeatures } from '../frontend/features.ts';
import { loadAcousticModel } from '../model/acoustic-model.ts';
import { resolveHmmModel } from '../models.ts';
import { readWavAtRate } from '../../../audio/wav.ts';
import { evalDir } from '../../../../test-support/eval-dir.ts';
import {
  JsGaussianKernel,
  NativeGaussianKernel,
  OnnxGaussianKernel,
  TOP_N,
  gaussianKernel,
  gaussianKernelChoice,
  kernelFallback,
  topNPerFrame,
  type GaussianKernel,
} from './gaussians.ts';
import type { Features } from '../frontend/features.ts';
import { nativeAddon, nativeAddonMissing } from '../../../native/addon.ts';
import { SenoneCosts, addCosts, addNear, densityCosts, topNAndCosts } from './senones.ts';

const spec = resolveHmmModel('en', 'full');
const model = loadAcousticModel({ dir: spec.hmm, featParams: spec.featParams });

function features(file = 'dr1-mcpm0_sa2') {
  const { samples } = readWavAtRate(`${evalDir()}/timit-dev/${file}.wav`, 16000)!;
  const fe = new FrontEnd(model.frontEnd);
  return computeFeatures(fe.cepstra(fe.logMel(samples)), model.frontEnd, model.streamLengths);
}

/** Frames t0..t0+n of a window as a window of their own. */
function slice(f: Features, t0: number, n: number): Features {
  const streams = f.streams.map((s, i) => {
    const len = model.streamLengths[i]!;
    return s.slice(t0 * len, (t0 + n) * len);
  });
  return { ...f, nFrames: n, streams };
}

test('the native kernel is built and is the one the engine takes', async () => {
  assert.ok(nativeAddon(), `native/build/tazamun-native.node: ${nativeAddonMissing()}`);
  const k = await gaussianKernel(model);
  assert.equal(k.name, 'native', `another kernel was taken: ${kernelFallback}`);
});

test('the choice a worker logs: the native kernel here, onnxruntime or JavaScript when asked for', () => {
  assert.deepEqual(gaussianKernelChoice(), { kernel: 'native', why: null });
  const before = process.env.TAZAMUN_GMM_KERNEL;
  try {
    process.env.TAZAMUN_GMM_KERNEL = 'onnx';
    assert.deepEqual(gaussianKernelChoice(), { kernel: 'onnx', why: 'TAZAMUN_GMM_KERNEL=onnx' });
    process.env.TAZAMUN_GMM_KERNEL = 'js';
    assert.equal(gaussianKernelChoice().kernel, 'js');
  } finally {
    if (before === undefined) delete process.env.TAZAMUN_GMM_KERNEL;
    else process.env.TAZAMUN_GMM_KERNEL = before;
  }
});

test('onnxruntime loads here (the fallback where the native kernel is not built)', async () => {
  const k = await OnnxGaussianKernel.create(model);
  assert.equal(k.name, 'onnx');
});

// (named here: a kernel made only to read its name would load onnxruntime when the file is read)
for (const [name, make] of [
  ['native', async (): Promise<GaussianKernel> => NativeGaussianKernel.create(model)!],
  ['onnx', async (): Promise<GaussianKernel> => OnnxGaussianKernel.create(model)],
] as const) {
  test(`${name} keeps the densities of the double-precision kernel, into a reused buffer too`, async () => {
    const feats = features();
    const kernel = await make();
    assert.equal(kernel.name, name);
    const ref = await new JsGaussianKernel(model).topN(feats);
    // a buffer longer than the window, holding another window's values: every value must be overwritten
    const n = ref.ll.length;
    const into = { ll: new Float32Array(n + 100).fill(7), cw: new Uint8Array(n + 100).fill(200) };
    for (const got of [await kernel.topN(feats), await kernel.topN(feats, into)]) {
      assert.equal(got.nFrames, feats.nFrames);
      assert.equal(got.ll.length, n);
      let differ = 0;
      let maxLl = 0;
      for (let i = 0; i < n; i++) {
        if (ref.cw[i] !== got.cw[i]) differ++;
        maxLl = Math.max(maxLl, Math.abs(ref.ll[i]! - got.ll[i]!));
      }
      // ties between two densities may order differently under float32 rounding; nothing else
      assert.ok(differ / n < 1e-4, `${differ} of ${n} densities differ`);
      // onnxruntime's [x, x², 1] products lose more to cancellation than the native kernel's differences
      const tolerance = kernel.name === 'native' ? 1e-3 : 0.1;
      assert.ok(maxLl < tolerance, `largest log-likelihood difference ${maxLl}`);
      for (let o = 0; o < n; o += TOP_N)
        for (let j = 1; j < TOP_N; j++) assert.ok(got.ll[o + j]! <= got.ll[o + j - 1]!, 'best first');
    }
    assert.equal(into.ll[n], 7, 'nothing written past the window');
  });
}

test('the native kernel gives the same bits on each vector path as on its scalar path, at every window length', async () => {
  const lanes = nativeAddon()!.vectorLanes();
  const paths = [16, 8].filter((w) => w <= lanes);
  // this machine runs at least the AVX2 path (AVX2 with FMA: x86 processors since 2013)
  assert.ok(paths.length > 0, `no vector path on this processor (${lanes} lane)`);
  const scalar = NativeGaussianKernel.create(model, { widest: 0 })!;
  const whole = features('dr1-fvmh0_si1466');
  // the vector paths score 8 or 16 frames at a time, 64 to a block: lengths around those edges
  const windows = [whole, ...[1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 130].map((n) => slice(whole, 11, n))];
  for (const widest of paths) {
    const vector = NativeGaussianKernel.create(model, { widest })!;
    for (const w of windows) {
      const a = await vector.topN(w);
      const b = await scalar.topN(w);
      assert.equal(a.ll.length, w.nFrames * topNPerFrame(model));
      assert.deepEqual(a.cw, b.cw, `codewords, ${widest} lanes, ${w.nFrames} frames`);
      assert.deepEqual(a.ll, b.ll, `log-likelihoods, ${widest} lanes, ${w.nFrames} frames`);
    }
  }
  const vector = NativeGaussianKernel.create(model)!;
  // a window's frames score as they do inside a longer one
  const part = await vector.topN(slice(whole, 11, 65));
  const full = await vector.topN(whole);
  const per = topNPerFrame(model);
  assert.deepEqual(part.ll, full.ll.subarray(11 * per, 76 * per));
});

test('the native kernel computes the density costs as densityCosts does, to the bit, into a reused buffer too', async () => {
  const native = NativeGaussianKernel.create(model)!;
  const js = new JsGaussianKernel(model);
  const whole = features('dr1-fvmh0_si1466');
  const stale = new Uint8Array(whole.nFrames * topNPerFrame(model) + 50).fill(201);
  for (const w of [whole, slice(whole, 3, 9), features()]) {
    const { topn, dens } = await topNAndCosts(
      native,
      w,
      { ll: new Float32Array(0), cw: new Uint8Array(0) },
      stale,
    );
    assert.deepEqual(dens, densityCosts(topn, null), `${w.nFrames} frames`);
    // the costs other kernels get from densityCosts: the same when their top-N agree
    const other = await topNAndCosts(js, w, { ll: new Float32Array(0), cw: new Uint8Array(0) });
    let differ = 0;
    for (let i = 0; i < dens.length; i++) if (dens[i] !== other.dens[i]) differ++;
    assert.ok(
      differ / dens.length < 1e-3,
      `${differ} of ${dens.length} costs differ from the JavaScript kernel's`,
    );
  }
  assert.equal(stale[whole.nFrames * topNPerFrame(model)], 201, 'nothing written past the window');
});

test('the native kernel refuses arguments it cannot use, with a TypeError, and keeps working', async () => {
  const addon = nativeAddon()!;
  const lens = Int32Array.from(model.streamLengths);
  assert.throws(
    () =>
      addon.createModel(
        model.means.subarray(1),
        model.variances,
        model.nCodebooks,
        model.nDensities,
        lens,
        16,
      ),
    TypeError,
  );
  assert.throws(
    () => addon.createModel(model.means, model.variances, model.nCodebooks, 300, lens, 16),
    TypeError,
  );
  const handle = addon.createModel(
    model.means,
    model.variances,
    model.nCodebooks,
    model.nDensities,
    lens,
    16,
  );
  const feats = features();
  const per = topNPerFrame(model);
  const ll = new Float32Array(feats.nFrames * per);
  const cw = new Uint8Array(feats.nFrames * per);
  assert.throws(() => addon.topN(handle, feats.streams, feats.nFrames, ll.subarray(1), cw), TypeError);
  assert.throws(() => addon.topN(handle, feats.streams.slice(0, 2), feats.nFrames, ll, cw), TypeError);
  assert.throws(() => addon.topN({}, feats.streams, feats.nFrames, ll, cw), TypeError);
  // another kind of handle is refused, not read as a model (and a model is not read as a front end)
  const frontEnd = addon.createFrontEnd(
    410,
    160,
    512,
    0.97,
    new Float64Array(410),
    new Float64Array(256),
    new Float64Array(256),
    new Uint16Array(0),
    Int32Array.from([1]),
    [new Float64Array(2)],
  );
  assert.throws(() => addon.topN(frontEnd, feats.streams, feats.nFrames, ll, cw), TypeError);
  assert.throws(() => addon.melSpectra(handle, new Float32Array(1000), 2, new Float64Array(2)), TypeError);
  assert.throws(() => addon.topN(handle, feats.streams, feats.nFrames + 1, ll, cw), TypeError);
  assert.throws(
    () => addon.topN(handle, feats.streams, feats.nFrames, ll, cw, cw.subarray(1), 1e-4, 96),
    TypeError,
  );
  assert.throws(() => addon.topN(handle, feats.streams, feats.nFrames, ll, cw, cw, 0, 96), TypeError);
  assert.throws(() => addon.topN(handle, feats.streams, feats.nFrames, ll, cw, cw), TypeError);
  addon.topN(handle, feats.streams, feats.nFrames, ll, cw);
  const ref = await new JsGaussianKernel(model).topN(feats);
  assert.equal(cw[0], ref.cw[0]);
});

test('senone costs: the log-sum of the four densities with their weights, as the Sphinx decoders round it', async () => {
  const feats = features();
  const topn = await new JsGaussianKernel(model).topN(feats);
  const dens = densityCosts(topn, null);
  // a senone's cost is the sum over streams of the log-add over its top-4, never below its best term
  const costs = new SenoneCosts(model, topn, dens, Int32Array.from([0, 100, 2000]));
  for (let t = 0; t < feats.nFrames; t += 17)
    for (let k = 0; k < 3; k++) assert.ok(Number.isInteger(costs.at(t, k)) && costs.at(t, k) >= 0);
  assert.equal(addCosts(10, 10), 3, 'two equal terms: -log 2 is 7 units below either');
  assert.equal(addCosts(10, 500), 10, 'a term 49 nats worse adds nothing');
});

test('the branch-free log-add equals addCosts wherever a senone cost can take it', () => {
  // a running log-sum (down to 3 log-adds of 7 units below zero) against a term in [0, 255]
  for (let a = -21; a <= 255; a++)
    for (let b = 0; b <= 255; b++) {
      assert.equal(addNear(a, b), addCosts(a, b), `${a} (+) ${b}`);
      assert.equal(addNear(b, a), addCosts(b, a), `${b} (+) ${a}`);
    }
});
