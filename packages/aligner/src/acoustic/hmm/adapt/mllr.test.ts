// MLLR on statistics whose transform is known: each Gaussian of the real English model visited by frames
// drawn around A μ + b (its own variance), some Gaussians not visited at all. The estimate must recover
// A and b, move the unvisited Gaussians by them too, keep classes apart when each has frames enough, and
// fall back to the global transform for a class with too few.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAcousticModel } from '../model/acoustic-model.ts';
import { resolveHmmModel } from '../models.ts';
import { densityOffset } from '../scoring/gaussians.ts';
import { MLLR_MIN_FRAMES, estimateMllr, mllrUpdate, regressionClasses } from './mllr.ts';
import { phoneClasses } from './edges.ts';
import { phoneSet } from '../phone-map.ts';

const spec = resolveHmmModel('en', 'full');
const model = loadAcousticModel({ dir: spec.hmm, featParams: spec.featParams });

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s + 0.5) / 2 ** 32;
  };
}

/** A known transform per stream: a scaled identity with a few cross terms, and a shift. */
function knownTransform(seed: number): { a: Float64Array; b: Float64Array }[] {
  const rand = seeded(seed);
  return model.streamLengths.map((d) => {
    const a = new Float64Array(d * d);
    const b = new Float64Array(d);
    for (let i = 0; i < d; i++) {
      a[i * d + i] = 0.8 + 0.4 * rand();
      if (i + 1 < d) a[i * d + i + 1] = 0.2 * (rand() - 0.5);
      b[i] = 2 * (rand() - 0.5);
    }
    return { a, b };
  });
}

/**
 * Occupancies and first moments as a corpus would give them: Gaussians of the codebooks `visit` says
 * visited with 3-40 frames each around the transformed mean (half the densities never visited).
 */
function statsFor(
  transformOf: (cb: number) => { a: Float64Array; b: Float64Array }[],
  visit: (cb: number) => boolean,
  seed: number,
): { occ: Float64Array; sum: Float64Array } {
  const rand = seeded(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rand())) * Math.cos(2 * Math.PI * rand());
  const occ = new Float64Array(model.nCodebooks * model.nStreams * model.nDensities);
  const sum = new Float64Array(model.means.length);
  for (let cb = 0; cb < model.nCodebooks; cb++) {
    if (!visit(cb)) continue;
    const t = transformOf(cb);
    for (let d = 0; d < model.nDensities; d += 2) {
      const n = 3 + Math.floor(rand() * 38);
      for (let f = 0; f < model.nStreams; f++) {
        occ[(cb * model.nStreams + f) * model.nDensities + d] = n;
        const dim = model.streamLengths[f]!;
        const at = densityOffset(model, cb, f, d);
        const { a, b } = t[f]!;
        for (let i = 0; i < dim; i++) {
          let mu = b[i]!;
          for (let j = 0; j < dim; j++) mu += a[i * dim + j]! * model.means[at + j]!;
          // the sum of n frames around the new mean: n μ' plus noise of n frames' spread
          sum[at + i] = n * mu + Math.sqrt(n * model.variances[at + i]!) * gauss();
        }
      }
    }
  }
  return { occ, sum };
}

function maxError(
  got: { a: Float64Array; b: Float64Array }[],
  want: { a: Float64Array; b: Float64Array }[],
): { a: number; b: number } {
  let ea = 0;
  let eb = 0;
  got.forEach((s, f) => {
    s.a.forEach((v, i) => (ea = Math.max(ea, Math.abs(v - want[f]!.a[i]!))));
    s.b.forEach((v, i) => (eb = Math.max(eb, Math.abs(v - want[f]!.b[i]!))));
  });
  return { a: ea, b: eb };
}

test('MLLR recovers a known mean transform from the Gaussians a corpus visited, and moves the others by it', () => {
  const known = knownTransform(1);
  const stats = statsFor(
    () => known,
    () => true,
    2,
  );
  // (no prior: the identity would pull the estimate off the known transform)
  const t = estimateMllr(model, stats, () => true, 0);
  const err = maxError(t.streams, known);
  assert.ok(err.a < 0.02 && err.b < 0.1, `largest error: A ${err.a.toFixed(4)}, b ${err.b.toFixed(4)}`);
  // the global update moves a never-visited density (odd index) most of the way to A μ + b as well
  const r = mllrUpdate(model, stats, regressionClasses('global', model.mdef.ciPhones, model.mdef.filler, {}));
  const at = densityOffset(model, 5, 1, 7);
  const d = model.streamLengths[1]!;
  let left = 0;
  let before = 0;
  for (let i = 0; i < d; i++) {
    let want = known[1]!.b[i]!;
    for (let j = 0; j < d; j++) want += known[1]!.a[i * d + j]! * model.means[at + j]!;
    left += Math.abs(r.means[at + i]! - want);
    before += Math.abs(model.means[at + i]! - want);
  }
  assert.ok(left < before / 5, `off A μ + b by ${left.toFixed(3)} after, ${before.toFixed(3)} before`);
  // with little speech the prior holds the estimate near the identity
  const few = statsFor(
    () => known,
    (cb) => cb === 3,
    3,
  );
  const small = estimateMllr(model, few, () => true);
  const shrunk = maxError(small.streams, known);
  assert.ok(shrunk.b > err.b, 'a transform from a few hundred frames is drawn towards the identity');
});

test('MLLR by broad classes: each class with frames enough gets its own transform, the others the global one', () => {
  const classes = regressionClasses(
    'broad',
    model.mdef.ciPhones,
    model.mdef.filler,
    phoneClasses(phoneSet('en').native),
  );
  const vowel = classes.names.indexOf('V');
  const nasal = classes.names.indexOf('N');
  assert.ok(vowel >= 0 && nasal >= 0, classes.names.join(' '));
  assert.equal(classes.of[model.mdef.ciIndex.get('AA')!], vowel);
  assert.equal(classes.of[model.mdef.ciIndex.get('M')!], nasal);
  assert.equal(classes.names[classes.of[model.mdef.sil]!], 'silence');
  const vowels = knownTransform(4);
  const others = knownTransform(5);
  // the nasals (three codebooks) get a handful of frames only
  const stats = statsFor(
    (cb) => (classes.of[cb] === vowel ? vowels : others),
    (cb) => classes.of[cb] !== nasal || cb === model.mdef.ciIndex.get('M'),
    6,
  );
  for (const cb of [model.mdef.ciIndex.get('M')!]) {
    for (let d = 0; d < model.nDensities; d++)
      for (let f = 0; f < model.nStreams; f++) {
        const i = (cb * model.nStreams + f) * model.nDensities + d;
        if (d > 8) {
          stats.occ[i] = 0;
          const at = densityOffset(model, cb, f, d);
          stats.sum.fill(0, at, at + model.streamLengths[f]!);
        }
      }
  }
  const r = mllrUpdate(model, stats, classes);
  const byName = new Map(r.classes.map((c) => [c.name, c]));
  assert.equal(byName.get('V')!.own, true);
  assert.ok(byName.get('N')!.frames < MLLR_MIN_FRAMES && !byName.get('N')!.own, JSON.stringify(r.classes));
  // a vowel's unvisited density follows the vowels' transform, not the others'
  const aa = model.mdef.ciIndex.get('AA')!;
  const at = densityOffset(model, aa, 0, 9);
  const d = model.streamLengths[0]!;
  const apply = (t: { a: Float64Array; b: Float64Array }[], i: number) => {
    let v = t[0]!.b[i]!;
    for (let j = 0; j < d; j++) v += t[0]!.a[i * d + j]! * model.means[at + j]!;
    return v;
  };
  let own = 0;
  let other = 0;
  for (let i = 0; i < d; i++) {
    own += Math.abs(r.means[at + i]! - apply(vowels, i));
    other += Math.abs(r.means[at + i]! - apply(others, i));
  }
  assert.ok(
    own < other / 4,
    `vowel density off its class's transform by ${own.toFixed(3)}, the others' by ${other.toFixed(3)}`,
  );
});
