import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCtcGraph, StateKind } from './ctc-graph.ts';
import type { CtcGraph } from './ctc-graph.ts';
import { ctcViterbi, starScores } from './ctc-viterbi.ts';
import type { EmissionMatrix } from './ctc-viterbi.ts';
import { ctcWordSpans } from './ctc-spans.ts';
import { greedyDecode } from './ctc-greedy.ts';
import { MMS_VOCAB, letterId } from '../acoustic/mms/vocab.ts';

const V = MMS_VOCAB.length;
const ids = (w: string): number[] => [...w].map((c) => letterId(c)!);

/** Emissions where each frame puts `p` on one label ('-' = blank) and spreads the rest evenly. */
function framesOf(spec: string, p = 0.9): EmissionMatrix {
  const labels = [...spec].map((c) => (c === '-' ? 0 : letterId(c)!));
  const lp = new Float32Array(labels.length * V);
  labels.forEach((l, t) => {
    for (let k = 0; k < V; k++) lp[t * V + k] = Math.log(k === l ? p : (1 - p) / (V - 1));
  });
  return { frames: labels.length, vocab: V, logProbs: lp };
}

/** Reference: full-matrix Viterbi with explicit back-pointers, no band, no checkpoints. */
function referenceViterbi(
  em: EmissionMatrix,
  g: CtcGraph,
  starPerFrame = -0.5,
): { score: number; states: number[] } {
  const star = starScores(em, 4, starPerFrame);
  const e = (t: number, s: number): number =>
    g.label[s] === -1 ? star[t]! : em.logProbs[t * V + g.label[s]!]!;
  const T = em.frames;
  const S = g.size;
  const d: number[][] = [];
  const bp: number[][] = [];
  d.push(Array.from({ length: S }, (_, s) => g.initial[s]! + e(0, s)));
  bp.push(new Array<number>(S).fill(-1));
  for (let t = 1; t < T; t++) {
    const row: number[] = [];
    const b: number[] = [];
    for (let s = 0; s < S; s++) {
      let best = d[t - 1]![s]!;
      let arg = s;
      for (let i = g.predStart[s]!; i < g.predStart[s + 1]!; i++) {
        const c = d[t - 1]![g.pred[i]!]! + g.predWeight[i]!;
        if (c > best) {
          best = c;
          arg = g.pred[i]!;
        }
      }
      row.push(best + e(t, s));
      b.push(arg);
    }
    d.push(row);
    bp.push(b);
  }
  let s = -1;
  let score = -Infinity;
  for (let k = 0; k < S; k++) {
    if (g.final[k] && d[T - 1]![k]! > score) {
      score = d[T - 1]![k]!;
      s = k;
    }
  }
  const states = new Array<number>(T);
  for (let t = T - 1; t >= 0; t--) {
    states[t] = s;
    s = bp[t]![s]!;
  }
  return { score, states };
}

/** Letters of the path per frame: '-' blank, '*' star, else the letter. */
function pathString(g: CtcGraph, states: Int32Array): string {
  return [...states]
    .map((s) =>
      g.kind[s] === StateKind.Blank ? '-' : g.kind[s] === StateKind.Star ? '*' : MMS_VOCAB[g.label[s]!],
    )
    .join('');
}

test('the path follows the letters the emissions spell, hand-computed', () => {
  const em = framesOf('--hh-i---ya--');
  for (const star of [false, true]) {
    const g = buildCtcGraph([ids('hi'), ids('ya')], { star });
    const path = ctcViterbi(em, g);
    assert.equal(pathString(g, path.states), '--hh-i---ya--');
    const spans = ctcWordSpans(em, g, path.states, { startPad: 0, endPad: 0, frameOffset: 0 });
    assert.deepEqual(
      spans.map((s) => [s.firstFrame, s.lastFrame]),
      [
        [2, 5],
        [9, 10],
      ],
    );
    assert.ok(Math.abs(spans[0]!.start - 0.04) < 1e-9 && Math.abs(spans[0]!.end - 0.12) < 1e-9);
    // The mean posterior over the word's frames: every frame has 0.9 on the path's label.
    assert.ok(Math.abs(spans[0]!.confidence - 0.9) < 1e-6);
    assert.deepEqual(
      spans[0]!.letters.map((l) => MMS_VOCAB[l.label]),
      ['h', 'i'],
    );
  }
});

test('a repeated letter needs a blank between its two emissions', () => {
  const em = framesOf('-l-l-');
  const g = buildCtcGraph([ids('ll')], { star: false });
  assert.equal(pathString(g, ctcViterbi(em, g).states), '-l-l-');
  // Without the blank in the audio the two l's must still take two distinct spikes.
  const em2 = framesOf('-ll--');
  const p2 = pathString(g, ctcViterbi(em2, g).states);
  assert.match(p2, /l-+l|l-l/);
});

test('banded, checkpointed search equals a full-matrix reference on random emissions', () => {
  let seed = 7;
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let trial = 0; trial < 12; trial++) {
    const words = Array.from({ length: 2 + (trial % 4) }, () =>
      Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => 4 + Math.floor(rnd() * 27)),
    );
    const T = 30 + Math.floor(rnd() * 30);
    const lp = new Float32Array(T * V);
    for (let t = 0; t < T; t++) {
      let z = 0;
      const row = Array.from({ length: V }, (_, k) => Math.exp((k === 0 ? 2 : 0) + 3 * rnd()));
      for (const x of row) z += x;
      row.forEach((x, k) => (lp[t * V + k] = Math.log(x / z)));
    }
    const em = { frames: T, vocab: V, logProbs: lp };
    const g = buildCtcGraph(words, { star: trial % 2 === 0 });
    const ref = referenceViterbi(em, g);
    const got = ctcViterbi(em, g, { segment: 7 });
    assert.ok(Math.abs(got.score - ref.score) < 1e-3, `trial ${trial}: ${got.score} vs ${ref.score}`);
    assert.deepEqual([...got.states], ref.states, `trial ${trial}`);
  }
});

test('a word that is not in the audio is skipped through <star> and its neighbours keep their times', () => {
  const em = framesOf('---one----two----');
  const g = buildCtcGraph([ids('one'), ids('zebra'), ids('two')]);
  const path = ctcViterbi(em, g);
  const spans = ctcWordSpans(em, g, path.states, { startPad: 0, endPad: 0 });
  assert.deepEqual(
    spans.map((s) => s.found),
    [true, false, true],
  );
  assert.deepEqual(
    [spans[0]!.firstFrame, spans[0]!.lastFrame, spans[2]!.firstFrame, spans[2]!.lastFrame],
    [3, 5, 10, 12],
  );
  // Without the wildcard the missing word is forced into the audio and displaces a neighbour.
  const g2 = buildCtcGraph([ids('one'), ids('zebra'), ids('two')], { star: false });
  const s2 = ctcWordSpans(em, g2, ctcViterbi(em, g2).states, { startPad: 0, endPad: 0 });
  assert.ok(s2.every((s) => s.found));
});

test('speech that is not in the text goes to <star>, not to the neighbouring words', () => {
  const em = framesOf('--one--xqxqzxq--two--');
  const g = buildCtcGraph([ids('one'), ids('two')]);
  const path = ctcViterbi(em, g);
  assert.equal(pathString(g, path.states), '--one--*******--two--');
  const spans = ctcWordSpans(em, g, path.states, { startPad: 1, endPad: 2 });
  // Padding takes the adjacent blanks only (at most half of each shared silence), never star frames.
  assert.deepEqual(
    spans.map((s) => [s.firstFrame, s.lastFrame]),
    [
      [1, 6],
      [15, 20],
    ],
  );
});

test('a transcript longer than the audio fails with a clear message', () => {
  const em = framesOf('-ab-');
  const g = buildCtcGraph([ids('abcdefgh')], { star: false });
  assert.throws(() => ctcViterbi(em, g), /cannot be fitted/);
});

test('greedy decoding splits words at pauses', () => {
  const em = framesOf('-hh-e-ll-l-o-----w-o--r-l-d--');
  const words = greedyDecode(em).map((w) => w.map((id) => MMS_VOCAB[id]).join(''));
  assert.deepEqual(words, ['hello', 'world']);
});
