// The Gaussian kernels against each other on real features: onnxruntime's matrix products and TopK must
// keep the same four densities as the double-precision JavaScript kernel, with log-likelihoods within
// float32 rounding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FrontEnd } from '../frontend/mfcc.ts';
import { computeFeatures } from '../frontend/features.ts';
import { loadAcousticModel } from '../model/acoustic-model.ts';
import { resolveHmmModel } from '../models.ts';
import { readWavAtRate } from '../../../audio/wav.ts';
import { evalDir } from '../../../../test-support/eval-dir.ts';
import { JsGaussianKernel, OnnxGaussianKernel, TOP_N, gaussianKernel, kernelFallback } from './gaussians.ts';
import { SenoneCosts, addCosts, addNear, densityCosts } from './senones.ts';

const spec = resolveHmmModel('en', 'full');
const model = loadAcousticModel({ dir: spec.hmm, featParams: spec.featParams });

function features() {
  const { samples } = readWavAtRate(`${evalDir()}/timit-dev/dr1-mcpm0_sa2.wav`, 16000)!;
  const fe = new FrontEnd(model.frontEnd);
  return computeFeatures(fe.cepstra(fe.logMel(samples)), model.frontEnd, model.streamLengths);
}

test('onnxruntime loads here', async () => {
  const k = await gaussianKernel(model);
  assert.equal(k.name, 'onnx', `the JavaScript fallback was taken: ${kernelFallback}`);
});

test('onnxruntime keeps the densities of the double-precision kernel, into a reused buffer too', async () => {
  const feats = features();
  const onnx = await OnnxGaussianKernel.create(model);
  const ref = await new JsGaussianKernel(model).topN(feats);
  // a buffer longer than the window, holding another window's values: every value must be overwritten
  const n = ref.ll.length;
  const into = { ll: new Float32Array(n + 100).fill(7), cw: new Uint8Array(n + 100).fill(200) };
  for (const got of [await onnx.topN(feats), await onnx.topN(feats, into)]) {
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
    assert.ok(maxLl < 0.01, `largest log-likelihood difference ${maxLl}`);
    for (let o = 0; o < n; o += TOP_N)
      for (let j = 1; j < TOP_N; j++) assert.ok(got.ll[o + j]! <= got.ll[o + j - 1]!, 'best first');
  }
  assert.equal(into.ll[n], 7, 'nothing written past the window');
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
