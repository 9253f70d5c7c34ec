// The native search (native/search.c) held to this file's reference, the JavaScript search in viterbi.ts:
// the same path, score, frames and per-frame best costs to the bit, on real windows of four languages and
// on every kind of grammar the engine searches (the transcript alone, with garbage loops between words,
// open-ended, the free phone loop of the recognition pass), and on a search that finds no path. Each
// comparison runs the same work twice in this thread, once with TAZAMUN_SEARCH=js, and counts the native
// calls, so that a run that silently took the same search twice fails. Then the native search's refusals:
// arrays that do not fit together are a TypeError, never a read outside them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { evalDir } from '@tazamun/aligner/testing/eval-dir';
import { nativeAddon, type NativeAddon } from '../../../native/addon.ts';
import { decodeAudio } from '../../../audio/decode.ts';
import { buildGrammar, type GrammarOptions } from '../../../align/grammar.ts';
import { align } from '../../../engine.ts';
import { HmmDecoder } from '../decoder.ts';
import { resolveHmmModel } from '../models.ts';
import { addNear, LOGADD_WIDE } from '../scoring/senones.ts';
import { searchChoice } from './viterbi.ts';

const EVAL = evalDir();

function addon(): NativeAddon {
  const a = nativeAddon();
  assert.ok(a, 'the native module is built (npm test builds it: node packages/aligner/native/build.mjs)');
  return a;
}

/** `work` with the native search, then with the JavaScript's; how many native searches the first made. */
async function bothWays<T>(work: () => Promise<T>): Promise<{ native: T; js: T; calls: number }> {
  const a = addon() as { search: NativeAddon['search'] };
  const before = process.env.TAZAMUN_SEARCH;
  const search = a.search;
  let calls = 0;
  a.search = (...args) => {
    calls++;
    return search(...args);
  };
  try {
    delete process.env.TAZAMUN_SEARCH;
    assert.equal(searchChoice().search, 'native');
    const native = await work();
    const nativeCalls = calls;
    process.env.TAZAMUN_SEARCH = 'js';
    assert.deepEqual(searchChoice(), { search: 'js', why: 'TAZAMUN_SEARCH=js' });
    calls = 0;
    const js = await work();
    assert.equal(calls, 0, 'TAZAMUN_SEARCH=js searched natively');
    return { native, js, calls: nativeCalls };
  } finally {
    a.search = search;
    if (before === undefined) delete process.env.TAZAMUN_SEARCH;
    else process.env.TAZAMUN_SEARCH = before;
  }
}

function utterance(set: string, uid: string): { wav: string; text: string; plain?: string } {
  const j = JSON.parse(readFileSync(join(EVAL, set, `${uid}.json`), 'utf8')) as {
    text: string;
    text_plain?: string;
  };
  return { wav: join(EVAL, set, `${uid}.wav`), text: j.text, plain: j.text_plain };
}

const GRAMMARS: [string, (garbage: string[]) => GrammarOptions][] = [
  ['the transcript alone', () => ({ garbage: [], garbageWeight: 0, openEnd: false })],
  ['garbage loops between words, open end', (garbage) => ({ garbage, garbageWeight: 0.05, openEnd: true })],
];

/** Every phone of the model as a garbage word (the back-end's garbage loop, backend.ts). */
const SKIP = new Set(['SIL', '+NSN+', '+SPN+', '+NOISE+', '+SPEECH+']);
const garbageOf = (dec: HmmDecoder) =>
  [...dec.phones].filter((p) => !SKIP.has(p)).map((p) => dec.wordFor([p], 'G'));

async function timit(dec: HmmDecoder, uid: string) {
  const u = utterance('timit-dev', uid);
  const { samples } = await decodeAudio(u.wav);
  const units = u.text
    .toLowerCase()
    .replace(/[^a-z' ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => ({ alternatives: dec.lookup(w).map((p) => dec.wordFor(p)) }));
  assert.ok(
    units.every((x) => x.alternatives.length > 0),
    `${uid}: every word in the dictionary`,
  );
  return { samples, units };
}

test('on TIMIT windows, every grammar and both levels, the native search gives the JavaScript search its path', async () => {
  const dec = await HmmDecoder.load(resolveHmmModel('en', 'full'));
  const garbage = garbageOf(dec);
  for (const uid of ['dr1-fvmh0_sa1', 'dr1-fvmh0_si1466', 'dr2-faem0_sx312', 'dr4-falr0_si1955']) {
    const { samples, units } = await timit(dec, uid);
    for (const [what, options] of GRAMMARS) {
      const g = buildGrammar(units, options(garbage));
      for (const level of [0, 1] as const) {
        const r = await bothWays(() => dec.run(samples, g, level));
        assert.ok(r.native, `${uid}, ${what}: a path`);
        assert.equal(r.calls, 1, `${uid}, ${what}: searched natively`);
        assert.deepEqual(r.native, r.js, `${uid}, ${what}, level ${level}`);
      }
    }
    // the recognition pass's free phone loop (searched again each way: the window's scores let go first)
    const loop = await bothWays(() => {
      dec.releaseScores();
      return dec.phoneLoop(samples);
    });
    assert.equal(loop.calls, 1);
    assert.ok(
      loop.native.phones.length > 5,
      `${uid}: the phone loop recognised ${loop.native.phones.length} phones`,
    );
    assert.deepEqual(loop.native, loop.js, `${uid}: the phone loop`);
  }
});

test('beams too narrow for any path: both searches find none', async () => {
  // a decoder of its own: the others keep the engine's beams
  const dec = await HmmDecoder.load(resolveHmmModel('en', 'full'));
  const { samples, units } = await timit(dec, 'dr1-fvmh0_sa1');
  const g = buildGrammar(units, { garbage: [], garbageWeight: 0, openEnd: false });
  dec.configure({ beam: 0.999, wbeam: 0.999, pbeam: 0.999 });
  const r = await bothWays(() => dec.run(samples, g, 1));
  assert.equal(r.calls, 1);
  assert.equal(r.native, null);
  assert.equal(r.js, null);
});

/** A result without the time it took. */
const timeless = (r: Awaited<ReturnType<typeof align>>) => {
  const { processing_time: _p, real_time_factor: _r, ...metrics } = r.metrics as Record<string, unknown>;
  return { ...r, metrics };
};

test('whole jobs in English, French and Arabic (vowelled and plain): the same result with either search', async () => {
  const jobs: [string, string, string, boolean][] = [
    ['en', 'timit-dev', 'dr2-marc0_sx18', false],
    ['fr', 'fr-librivox-mfa', 'VH_dernierjour_chapI_02', false],
    ['ar', 'ar-synthetic', 'arsyn_02', false],
    ['ar', 'ar-synthetic', 'arsyn_03', true],
  ];
  for (const [lang, set, uid, plain] of jobs) {
    const u = utterance(set, uid);
    const text = plain && u.plain ? u.plain : u.text;
    const r = await bothWays(() => align(u.wav, text, { lang }));
    assert.ok(r.calls >= 2, `${uid}: ${r.calls} native searches`);
    assert.ok(
      r.native.words.some((w) => w.status === 'aligned'),
      `${uid}: words aligned`,
    );
    assert.deepEqual(timeless(r.native), timeless(r.js), `${set}/${uid}${plain ? ' (plain)' : ''}`);
  }
});

/**
 * A network of one phone HMM between a start slot and an accepting one, and senone costs of one senone
 * over `frames` frames, every density at cost 0: a path of one phone over all the frames.
 */
function tinySearch(frames: number) {
  const net = {
    nHmms: 1,
    nEmit: 3,
    nSlots: 2,
    startSlot: 0,
    hmmSenones: new Int32Array([0, 0, 0]),
    hmmTmat: new Int32Array([0]),
    hmmEntryCost: new Float64Array([0]),
    nextFirst: new Int32Array([0, 0]),
    nextList: new Int32Array(0),
    exitFirst: new Int32Array([0, 1]),
    exitList: new Int32Array([1]),
    slotFinal: new Uint8Array([0, 1]),
    enterFirst: new Int32Array([0, 1, 1]),
    enterList: new Int32Array([0]),
    nullFirst: new Int32Array([0, 0, 0]),
    nullSlot: new Int32Array(0),
    nullCost: new Float64Array(0),
  };
  const costs = {
    senones: new Int32Array([0]),
    cb: new Int32Array([0]),
    mixw: new Uint8Array(4),
    cw: new Uint8Array(frames * 4),
    dens: new Uint8Array(frames * 4),
    nStreams: 1,
    nDensities: 4,
    nCodebooks: 1,
    perFrame: 4,
    streamStride: 4,
  };
  // every transition at -1, the exits too
  const trans = new Float64Array(8).fill(-1);
  const run = (n = net, c = costs, t = trans, logadd = LOGADD_WIDE, best = new Int32Array(frames)) =>
    addon().search(n, c, frames, 1e9, 1e9, 1e9, t, logadd, best);
  return { net, costs, trans, run };
}

test('a path worked out by hand: one phone over five frames', () => {
  const { run } = tinySearch(5);
  const best = new Int32Array(5);
  const r = run(undefined, undefined, undefined, undefined, best);
  // a frame's cost: its senone's four densities, each at 0, log-added
  const c = addNear(addNear(addNear(0, 0), 0), 0);
  assert.ok(c < 0);
  assert.deepEqual(best, new Int32Array(5).fill(c));
  assert.ok(r);
  assert.deepEqual([...r.phones], [0, 0, 4]);
  assert.equal(r.nFrames, 5);
  // five emissions and five transitions (four inside the phone and its exit), whatever states it took
  assert.equal(r.score, -5 * c - 5);
});

test('arrays that do not fit together are refused with a TypeError, and the next search is unharmed', () => {
  const { net, costs, trans, run } = tinySearch(5);
  const wrong: [string, () => unknown][] = [
    ['an HMM entered from a slot past the last', () => run({ ...net, enterList: new Int32Array([1]) })],
    ['an exit into a slot past the last', () => run({ ...net, exitList: new Int32Array([2]) })],
    [
      'offsets that go down',
      () =>
        run({
          ...net,
          nullFirst: new Int32Array([0, 1, 0]),
          nullSlot: new Int32Array([1]),
          nullCost: new Float64Array([0]),
        }),
    ],
    ['a start slot past the last', () => run({ ...net, startSlot: 2 })],
    ['a senone past the costs', () => run({ ...net, hmmSenones: new Int32Array([0, 1, 0]) })],
    ['a transition matrix past the scores', () => run({ ...net, hmmTmat: new Int32Array([1]) })],
    ['a network that is not one', () => run({ nHmms: 1 } as typeof net)],
    ['a senone past the mixture weights', () => run(net, { ...costs, senones: new Int32Array([1]) })],
    ['a codebook past the top-N', () => run(net, { ...costs, cb: new Int32Array([1]) })],
    [
      'top-N shorter than the frames',
      () => run(net, { ...costs, cw: new Uint8Array(8), dens: new Uint8Array(8) }),
    ],
    ['a density index past the weights', () => run(net, { ...costs, cw: new Uint8Array(20).fill(7) })],
    ['a frame stride that is not the top-N', () => run(net, { ...costs, perFrame: 8 })],
    ['a log-add table of another length', () => run(net, costs, trans, new Int32Array(10))],
    ['a per-frame output too short', () => run(net, costs, trans, LOGADD_WIDE, new Int32Array(2))],
    ['arguments missing', () => (addon().search as (...a: unknown[]) => unknown)(net, costs, 5)],
  ];
  for (const [what, call] of wrong) assert.throws(call, TypeError, what);
  assert.deepEqual([...run()!.phones], [0, 0, 4]);
});
