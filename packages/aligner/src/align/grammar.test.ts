import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildGrammar, closeEmpty, MAX_EMPTY_HOPS, OPEN_HEAD_SKIP_MAX, wordLoop } from './grammar.ts';
import type { Fsg, FsgArc } from './grammar.ts';

const none = { garbage: [], garbageWeight: 0, openEnd: false };
const show = (a: FsgArc): string =>
  `${a.from}-${a.word ?? 'ε'}:${a.logWeight !== undefined ? `log${+a.logWeight.toPrecision(3)}` : +a.prob.toPrecision(3)}->${a.to}`;
const arcs = (g: Fsg): string[] => g.arcs.map(show).sort();

/** Every word sequence the graph accepts, by walking it (small graphs only). */
function sentences(g: Fsg, limit = 50): string[] {
  const out = new Set<string>();
  const walk = (s: number, words: string[], depth: number): void => {
    if (s === g.final) out.add(words.join(' '));
    if (depth > limit) return;
    for (const a of g.arcs)
      if (a.from === s && !(a.from === a.to && a.word === null))
        walk(a.to, a.word ? [...words, a.word] : words, depth + 1);
  };
  walk(g.start, [], 0);
  return [...out].sort();
}

test('a plain sequence: one arc per pronunciation between consecutive states', () => {
  const g = buildGrammar([{ alternatives: ['P_DH_AH', 'P_DH_IY'] }, { alternatives: ['P_K_AE_T'] }], none);
  assert.equal(g.states, 3);
  assert.equal(g.start, 0);
  assert.equal(g.final, 2);
  assert.deepEqual(arcs(g), ['0-P_DH_AH:1->1', '0-P_DH_IY:1->1', '1-P_K_AE_T:1->2']);
  assert.deepEqual(sentences(g), ['P_DH_AH P_K_AE_T', 'P_DH_IY P_K_AE_T']);
});

test('skippable units: an empty arc beside the word, chains closed into direct arcs', () => {
  const g = buildGrammar(
    [
      { alternatives: ['A'], skippable: 0.9 },
      { alternatives: ['B'], skippable: 0.9 },
      { alternatives: ['C'] },
    ],
    none,
  );
  assert.deepEqual(
    arcs(g),
    ['0-A:0.9->1', '0-ε:log-2.3->2', '0-ε:0.1->1', '1-B:0.9->2', '1-ε:0.1->2', '2-C:1->3'].sort(),
  );
  assert.deepEqual(sentences(g), ['A B C', 'A C', 'B C', 'C']);
});

test('a garbage loop sits on every boundary between two units, not at either end', () => {
  const g = buildGrammar([{ alternatives: ['A'] }, { alternatives: ['B'] }], {
    garbage: ['G_S'],
    garbageWeight: 0.01,
    openEnd: false,
  });
  assert.deepEqual(arcs(g), ['0-A:1->1', '1-B:1->2', '1-G_S:0.01->1']);
});

test('garbageEnds adds a loop before the first unit and after the last', () => {
  const g = buildGrammar([{ alternatives: ['A'] }, { alternatives: ['B'] }], {
    garbage: ['G_S'],
    garbageWeight: 0.01,
    garbageEnds: true,
    openEnd: false,
  });
  assert.deepEqual(arcs(g), ['0-A:1->1', '0-G_S:0.01->0', '1-B:1->2', '1-G_S:0.01->1', '2-G_S:0.01->2']);
});

test('the loops at the ends take their own log weight, the loops between words keep theirs', () => {
  const g = buildGrammar([{ alternatives: ['A'] }, { alternatives: ['B'] }], {
    garbage: ['G_S'],
    garbageWeight: 0,
    garbageLogWeight: -40,
    endsLogWeight: -25,
    garbageEnds: true,
    openEnd: false,
  });
  const loops = g.arcs.filter((a) => a.word === 'G_S').map((a) => `${a.from}:${a.logWeight}`);
  assert.deepEqual(loops.sort(), ['0:-25', '1:-40', '2:-25']);
});

test('an open end accepts every prefix of the text, through one empty arc each', () => {
  const g = buildGrammar([{ alternatives: ['A'] }, { alternatives: ['B'] }, { alternatives: ['C'] }], {
    ...none,
    openEnd: true,
  });
  assert.equal(g.final, 4);
  assert.deepEqual(sentences(g), ['', 'A', 'A B', 'A B C']);
  assert.equal(g.arcs.filter((a) => a.word === null).length, 4);
});

test('the open-end tail loop takes a log weight', () => {
  const g = buildGrammar([{ alternatives: ['A'] }], {
    garbage: ['G_S'],
    garbageWeight: 0,
    openEnd: true,
    tailLogWeight: -50,
  });
  const tail = g.arcs.filter((a) => a.word === 'G_S');
  assert.equal(tail.length, 1);
  assert.equal(tail[0]!.from, g.final);
  assert.equal(tail[0]!.to, g.final);
  assert.equal(tail[0]!.logWeight, -50);
});

test('a lattice unit spells slots with alternative sequences and silent slots', () => {
  // k (a | "a a" | -) t : the vowel may be short, long or absent
  const g = buildGrammar([{ slots: [[['K']], [['A'], ['A', 'A'], []], [['T']]] }], none);
  assert.deepEqual(sentences(g), ['K A A T', 'K A T', 'K T']);
  assert.equal(g.arcs.filter((a) => a.word === null).length, 1);
});

test('a skipped lattice unit costs its skip weight once', () => {
  const g = buildGrammar([{ slots: [[['K']], [['T']]], skippable: 0.75 }, { alternatives: ['B'] }], none);
  assert.deepEqual(sentences(g), ['B', 'K T B']);
  const first = g.arcs.filter((a) => a.from === 0);
  assert.deepEqual(first.map(show).sort(), ['0-K:0.75->2', '0-ε:0.25->1']);
});

test('empty chains are closed over at most MAX_EMPTY_HOPS hops, keeping the best product', () => {
  const n = MAX_EMPTY_HOPS + 2;
  const chain: FsgArc[] = [];
  for (let i = 0; i < n; i++) chain.push({ from: i, to: i + 1, word: null, prob: 0.5 });
  chain.push({ from: 0, to: 2, word: null, prob: 0.4 });
  const closed = closeEmpty(chain, n + 1);
  const from0 = closed.filter((a) => a.from === 0).sort((a, b) => a.to - b.to);
  // the 0->2 shortcut saves one hop: states 1 .. MAX_EMPTY_HOPS + 1 are reached, the chain's end is not
  assert.deepEqual(
    from0.map((a) => a.to),
    Array.from({ length: MAX_EMPTY_HOPS + 1 }, (_, i) => i + 1),
  );
  assert.ok(n > MAX_EMPTY_HOPS + 1);
  // 0->2 directly (0.4) beats 0->1->2 (0.25)
  assert.equal(from0.find((a) => a.to === 2)!.prob, 0.4);
  assert.equal(from0.find((a) => a.to === 3)!.prob, 0.2);
});

test('a word loop accepts any non-empty sequence', () => {
  const g = wordLoop(['A', 'B']);
  assert.equal(g.final, 1);
  assert.deepEqual(arcs(g), ['0-A:0.5->1', '0-B:0.5->1', '1-A:0.5->1', '1-B:0.5->1']);
});

test('a long run of skippable units at either end is skipped in one hop', () => {
  const n = MAX_EMPTY_HOPS + 4;
  const units = Array.from({ length: n }, (_, i) => ({ alternatives: [`W${i}`], skippable: 0.9 }));
  const g = buildGrammar(units, none);
  const direct = g.arcs.filter((a) => a.word === null && (a.from === 0 || a.to === g.final));
  // start -> every boundary and every boundary -> final, each as one arc
  const fromStart = new Set(direct.filter((a) => a.from === 0).map((a) => a.to));
  const toFinal = new Set(direct.filter((a) => a.to === g.final).map((a) => a.from));
  assert.equal(fromStart.size, n - 1);
  assert.equal(toFinal.size, n - 1);
  // priced as one skipped word, however many it skips
  const far = direct.find((a) => a.from === 0 && a.logWeight !== undefined && a.to === n - 1)!;
  assert.ok(Math.abs(far.logWeight! - Math.log(0.1)) < 1e-9);
});

test('an open-ended window skips at most OPEN_HEAD_SKIP_MAX units at its start in one hop', () => {
  const n = OPEN_HEAD_SKIP_MAX + 20;
  const units = Array.from({ length: n }, (_, i) => ({ alternatives: [`W${i}`], skippable: 0.9 }));
  const g = buildGrammar(units, { ...none, openEnd: true });
  const far = g.arcs.filter((a) => a.from === 0 && a.word === null && a.to !== g.final).map((a) => a.to);
  assert.equal(Math.max(...far), OPEN_HEAD_SKIP_MAX);
  const closed = buildGrammar(units, none);
  const farClosed = closed.arcs.filter((a) => a.from === 0 && a.word === null).map((a) => a.to);
  assert.equal(Math.max(...farClosed), n - 1);
});

test('every word arc names the unit it spells, so a path that skips units still says which it took', () => {
  const slots = (...phones: string[]): string[][][] => phones.map((p) => [[p]]);
  const g = buildGrammar(
    [
      { slots: slots('Q0_T', 'Q0_A'), skippable: 0.9 },
      { alternatives: ['P_S_IY'], skippable: 0.9 },
      { slots: [[['Q2_M'], []], [['Q2_N']]], skippable: 0.9 },
      // the same spelling as unit 0 (its tag, too): only the arc's unit tells them apart
      { slots: slots('Q0_T', 'Q0_A'), skippable: 0.9 },
    ],
    { garbage: ['G_AA'], garbageWeight: 0.01, openEnd: true },
  );
  const units = (word: string) => [...new Set(g.arcs.filter((a) => a.word === word).map((a) => a.unit))];
  assert.deepEqual(units('Q0_T'), [0, 3]);
  assert.deepEqual(units('Q0_A'), [0, 3]);
  assert.deepEqual(units('P_S_IY'), [1]);
  assert.deepEqual(units('Q2_M'), [2]);
  assert.deepEqual(units('Q2_N'), [2]);
  // garbage and empty arcs belong to no unit
  assert.deepEqual(units('G_AA'), [undefined]);
  assert.ok(g.arcs.filter((a) => a.word === null).every((a) => a.unit === undefined));
  // each unit's arcs leave from the states after the unit before it: unit 3's T starts where unit 2 ends
  const t3 = g.arcs.find((a) => a.word === 'Q0_T' && a.unit === 3)!;
  const n2 = g.arcs.find((a) => a.word === 'Q2_N')!;
  assert.equal(t3.from, n2.to);
});
