// Feature-space adaptation on speech whose distortion is known: frames drawn from the model's own
// senones, then scaled and shifted per stream as another microphone or voice would. The transform
// estimated from them (top-4 densities scored by the real kernel, the senones known) must undo the
// distortion, raise the auxiliary function, and leave undistorted frames nearly alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAcousticModel } from '../model/acoustic-model.ts';
import { resolveHmmModel } from '../models.ts';
import { JsGaussianKernel, densityOffset } from '../scoring/gaussians.ts';
import { UNIT_NATS } from '../scoring/senones.ts';
import { computeFeatures } from '../frontend/features.ts';
import type { Features } from '../frontend/features.ts';
import { nativeAddon } from '../../../native/addon.ts';
import {
  AdaptationStats,
  accumulateFrame,
  applyTransform,
  auxiliary,
  determinant,
  estimateTransform,
  invert,
  renormalised,
} from './fmllr.ts';
import type { FeatureTransform } from './fmllr.ts';

const spec = resolveHmmModel('en', 'full');
const model = loadAcousticModel({ dir: spec.hmm, featParams: spec.featParams });
/** Per stream and dimension, the model's typical standard deviation (errors are measured in these). */
const sd = model.streamLengths.map((d, f) =>
  Array.from({ length: d }, (_, i) => {
    let v = 0;
    for (let cb = 0; cb < model.nCodebooks; cb++)
      for (let k = 0; k < model.nDensities; k++) v += model.variances[densityOffset(model, cb, f, k) + i]!;
    return Math.sqrt(v / (model.nCodebooks * model.nDensities));
  }),
);

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s + 0.5) / 2 ** 32;
  };
}

/** Frames drawn from a run of senones (a few frames each), with the senone of every frame. */
function draw(nFrames: number, seed: number): { feats: Features; senones: number[] } {
  const rand = seeded(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rand())) * Math.cos(2 * Math.PI * rand());
  const nSen = model.mdef.nSenones;
  const streams = model.streamLengths.map((d) => new Float32Array(nFrames * d));
  const senones: number[] = [];
  let senone = 0;
  for (let t = 0; t < nFrames; t++) {
    if (t % 6 === 0) senone = Math.floor(rand() * nSen);
    senones.push(senone);
    const cb = model.mdef.senoneCi[senone]!;
    model.streamLengths.forEach((d, f) => {
      // a density by the senone's mixture weights
      const base = (senone * model.nStreams + f) * model.nDensities;
      let total = 0;
      for (let k = 0; k < model.nDensities; k++) total += Math.exp(-model.mixw[base + k]! * UNIT_NATS);
      let u = rand() * total;
      let k = 0;
      for (; k < model.nDensities - 1; k++) {
        u -= Math.exp(-model.mixw[base + k]! * UNIT_NATS);
        if (u <= 0) break;
      }
      const o = densityOffset(model, cb, f, k);
      for (let i = 0; i < d; i++)
        streams[f]![t * d + i] = model.means[o + i]! + Math.sqrt(model.variances[o + i]!) * gauss();
    });
  }
  return { feats: { nFrames, streams, streamLengths: model.streamLengths }, senones };
}

/** A distortion per stream: x -> D x + e, D near the identity with some mixing, e a shift. */
function distortion(seed: number): FeatureTransform {
  const rand = seeded(seed);
  const streams = model.streamLengths.map((d) => {
    const a = new Float64Array(d * d);
    const b = new Float64Array(d);
    for (let i = 0; i < d; i++) {
      a[i * d + i] = 0.75 + 0.2 * rand();
      if (i + 1 < d) a[i * d + i + 1] = 0.1 * (rand() - 0.5);
      b[i] = 0.6 * (rand() - 0.5);
    }
    return { a, b };
  });
  return { streams, frames: 0, id: 'test-distortion' };
}

function identity(): FeatureTransform {
  return {
    streams: model.streamLengths.map((d) => {
      const a = new Float64Array(d * d);
      for (let i = 0; i < d; i++) a[i * d + i] = 1;
      return { a, b: new Float64Array(d) };
    }),
    frames: 0,
    id: 'identity',
  };
}

async function estimate(
  feats: Features,
  senones: number[],
): Promise<{ tf: FeatureTransform; stats: AdaptationStats }> {
  const topn = await new JsGaussianKernel(model).topN(feats);
  const stats = new AdaptationStats(model);
  senones.forEach((s, t) => stats.add(feats, topn, t, s));
  return { tf: estimateTransform(stats), stats };
}

test('the matrix helpers: an inverse times its matrix is the identity, and determinants agree', () => {
  const m = Float64Array.from([4, 1, 0.5, 1, 3, 0.2, 0.5, 0.2, 2]);
  const inv = invert(m, 3)!;
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++) {
      let s = 0;
      for (let k = 0; k < 3; k++) s += m[r * 3 + k]! * inv[k * 3 + c]!;
      assert.ok(Math.abs(s - (r === c ? 1 : 0)) < 1e-12);
    }
  assert.ok(Math.abs(determinant(m, 3) - (4 * (3 * 2 - 0.04) - 1 * (2 - 0.1) + 0.5 * (0.2 - 1.5))) < 1e-12);
  assert.equal(invert(Float64Array.from([1, 2, 2, 4]), 2), null);
});

test('a known distortion is undone by the transform estimated from 3,000 frames', async () => {
  const { feats, senones } = draw(3000, 7);
  const bent = distortion(11);
  const heard = applyTransform(feats, bent);
  const { tf, stats } = await estimate(heard, senones);
  const [q0, q1] = [auxiliary(stats, identity(), model), auxiliary(stats, tf, model)];
  q0.forEach((q, f) => assert.ok(q1[f]! > q, `stream ${f}: the estimate raises the auxiliary function`));
  // the estimate composed with the distortion: near the identity, against the distortion itself
  model.streamLengths.forEach((d, f) => {
    const { a: da, b: db } = bent.streams[f]!;
    const { a: ta, b: tb } = tf.streams[f]!;
    let worstBefore = 0;
    let worstAfter = 0;
    for (let i = 0; i < d; i++) {
      for (let j = 0; j < d; j++) {
        let s = 0;
        for (let k = 0; k < d; k++) s += ta[i * d + k]! * da[k * d + j]!;
        // in the dimensions' own scales
        const scale = sd[f]![j]! / sd[f]![i]!;
        worstAfter = Math.max(worstAfter, Math.abs(s - (i === j ? 1 : 0)) * scale);
        worstBefore = Math.max(worstBefore, Math.abs(da[i * d + j]! - (i === j ? 1 : 0)) * scale);
      }
      let shift = tb[i]!;
      for (let k = 0; k < d; k++) shift += ta[i * d + k]! * db[k]!;
      assert.ok(Math.abs(shift) < 0.1 * sd[f]![i]!, `stream ${f} row ${i}: shift left ${shift.toFixed(3)}`);
    }
    assert.ok(worstAfter < 0.15, `stream ${f}: ${worstAfter.toFixed(3)} from the identity after`);
    assert.ok(worstAfter < worstBefore / 1.5, `stream ${f}: ${worstBefore.toFixed(3)} before`);
  });
});

test('frames the model already fits keep a transform near the identity; few frames estimate the diagonal only', async () => {
  const { feats, senones } = draw(3000, 3);
  const { tf } = await estimate(feats, senones);
  model.streamLengths.forEach((d, f) => {
    const { a, b } = tf.streams[f]!;
    for (let i = 0; i < d; i++) {
      assert.ok(Math.abs(b[i]!) < 0.1 * sd[f]![i]!, `stream ${f}: bias ${b[i]}`);
      for (let j = 0; j < d; j++)
        assert.ok(Math.abs(a[i * d + j]! - (i === j ? 1 : 0)) * (sd[f]![j]! / sd[f]![i]!) < 0.1);
    }
  });
  const few = draw(600, 5);
  const small = await estimate(applyTransform(few.feats, distortion(13)), few.senones);
  model.streamLengths.forEach((d, f) => {
    const { a } = small.tf.streams[f]!;
    for (let i = 0; i < d; i++)
      for (let j = 0; j < d; j++) if (i !== j) assert.equal(a[i * d + j], 0, 'off-diagonal left at zero');
  });
});

test('the native accumulation gives the JavaScript reference its bits, frame after frame, and refuses arrays too short', () => {
  const native = nativeAddon();
  assert.ok(
    native,
    'the native module is built (npm test builds it: node packages/aligner/native/build.mjs)',
  );
  const { feats } = draw(400, 3);
  let seed = 17;
  const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32) * 2 - 0.5;
  model.streamLengths.forEach((d, f) => {
    const n = d + 1;
    const [gJs, gC] = [new Float64Array(d * n * n), new Float64Array(d * n * n)];
    const [kJs, kC] = [new Float64Array(d * n), new Float64Array(d * n)];
    const wg = new Float64Array(d);
    const wk = new Float64Array(d);
    for (let t = 0; t < feats.nFrames; t++) {
      for (let i = 0; i < d; i++) [wg[i], wk[i]] = [rand() * 3, rand() * 40];
      accumulateFrame(gJs, kJs, feats.streams[f]!, t * d, d, wg, wk);
      native.fmllrAccumulate(gC, kC, feats.streams[f]!, t * d, d, wg, wk);
    }
    assert.ok(gJs.some((v) => v !== 0));
    assert.deepEqual(gC, gJs, `stream ${f}: G`);
    assert.deepEqual(kC, kJs, `stream ${f}: k`);
    const x = feats.streams[f]!;
    const short: [string, () => void][] = [
      ['a frame past the stream', () => native.fmllrAccumulate(gC, kC, x, x.length - d + 1, d, wg, wk)],
      ['G too short', () => native.fmllrAccumulate(gC.subarray(1), kC, x, 0, d, wg, wk)],
      ['k too short', () => native.fmllrAccumulate(gC, kC.subarray(1), x, 0, d, wg, wk)],
      ['weights too short', () => native.fmllrAccumulate(gC, kC, x, 0, d, wg.subarray(1), wk)],
      [
        'not a Float32Array',
        () => native.fmllrAccumulate(gC, kC, gC as unknown as Float32Array, 0, d, wg, wk),
      ],
    ];
    for (const [what, call] of short) assert.throws(call, TypeError, what);
  });
});

test('a transform fitted to one window reads a stretch of it, normalised by its own mean, as it read the window', () => {
  // cepstra of a 3 s window whose second half is louder and brighter (its mean is not the window's; c0
  // above zero throughout, so that every frame counts in the means)
  const ncep = model.frontEnd.ncep;
  const rand = seeded(7);
  const nfr = 300;
  const cep = new Float32Array(nfr * ncep);
  for (let t = 0; t < nfr; t++)
    for (let i = 0; i < ncep; i++)
      cep[t * ncep + i] = (i === 0 ? 5 : 0) + (t >= 150 ? 3 + 0.2 * i : 0) + 2 * (rand() - 0.5);
  const settings = { ...model.frontEnd, cmn: 'batch' as const, varnorm: false };
  const window = computeFeatures(cep.slice(), settings, model.streamLengths);
  // the stretch of frames 120..260 on its own: another mean subtracted
  const stretch = computeFeatures(cep.slice(120 * ncep, 260 * ncep), settings, model.streamLengths);
  assert.ok(window.cmn && stretch.cmn, 'batch CMN reports the mean it subtracted');
  assert.ok(Math.abs(window.cmn.mean[0]! - stretch.cmn.mean[0]!) > 0.5, 'the two means differ');
  const fitted = { ...distortion(11), cmn: window.cmn.mean };
  const read = applyTransform(stretch, renormalised(fitted, stretch));
  const asWindow = applyTransform(window, fitted);
  // away from the stretch's edges (the differences repeat its edge frames) every value is the window's
  let worst = 0;
  for (let f = 0; f < model.nStreams; f++) {
    const d = model.streamLengths[f]!;
    for (let t = 4; t < 140 - 4; t++)
      for (let i = 0; i < d; i++)
        worst = Math.max(
          worst,
          Math.abs(read.streams[f]![t * d + i]! - asWindow.streams[f]![(t + 120) * d + i]!),
        );
  }
  assert.ok(worst < 1e-4, `largest difference ${worst}`);
  // without the correction the stretch is read off by the difference of the means
  const plain = applyTransform(stretch, { ...fitted, cmn: undefined });
  assert.ok(
    Math.abs(
      plain.streams[0]![10 * model.streamLengths[0]!]! - asWindow.streams[0]![130 * model.streamLengths[0]!]!,
    ) > 0.1,
  );
  // a transform fitted to the stretch's own frames (no mean given) is applied as it is
  const own = distortion(11);
  assert.equal(renormalised(own, stretch), own);
});
