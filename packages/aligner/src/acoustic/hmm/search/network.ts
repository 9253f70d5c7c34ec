// The search network: a word graph (align/grammar.ts's finite-state grammar) expanded into phone HMMs
// with their cross-word contexts. A word's first phone depends on the last phone of the word before it and
// its last phone on the first phone of the word after it, so the graph's states become "slots" keyed by
// (state, left context, right context): a word's last phone is instantiated once per right context its
// destination can see, and each instance exits into the slot of that context; the next word's first
// phone, instantiated once per left context, is entered only from slots whose right context is its own
// first phone. First-phone instances with the same senones are shared. Fillers (silence, noise) and
// context-free words (the garbage and recognition phone loops) use context-independent phones and present
// silence as their context, as the Sphinx decoders do. Costs are in the decoders' integer units
// (model/acoustic-model.ts).
import { EngineError } from '../../../errors.ts';
import type { AcousticModel } from '../model/acoustic-model.ts';
import { WPOS, nearestPhone, phoneSenones } from '../model/mdef.ts';

export interface WordDef {
  name: string;
  /** CI phone indices */
  phones: number[];
  /** filler: silence or noise; free: a context-free phone sequence (garbage, recognition loop); word */
  kind: 'word' | 'filler' | 'free';
}

export interface GraphArc {
  from: number;
  to: number;
  /** index into words, or -1 for an empty transition */
  word: number;
  /** cost in units (>= 0) */
  cost: number;
  /** the grammar unit the arc's word spells (FsgArc.unit), when it is one */
  unit?: number;
}

export interface WordGraph {
  states: number;
  start: number;
  final: number;
  words: WordDef[];
  arcs: GraphArc[];
  /** cost added to every word entered (the word insertion penalty), units */
  wordPenalty: number;
}

/**
 * Which contexts pick a phone's triphone:
 * - firstPhone: a word's first phone is the triphone of its state's lowest-numbered left context,
 *   whatever word precedes it. pocketsphinx's search does this (fsg_lextree.c shares one root HMM among
 *   all the left contexts of a state, a bug); the parity tests emulate it.
 * - singlePhoneSil: a one-phone word is modelled as followed by silence. pocketsphinx's first pass does
 *   this; kept by default because the Arabic letter lattices, whose every phone is a one-phone word, are
 *   placed better so (ar-synthetic 26.4 against 31.5 ms with true right contexts; docs/benchmarks.md).
 */
export interface ContextRules {
  firstPhone: boolean;
  singlePhoneSil: boolean;
  /**
   * A word's arc weight is paid on entering its last phone, and only the insertion penalty on entering its
   * first: pocketsphinx's lextree puts it there (fsg_lextree.c, so that words sharing a prefix share its
   * HMMs). The path costs the same; the beams see the weight later. Single-phone words pay both on entry.
   */
  arcCostAtLastPhone: boolean;
}

export const DEFAULT_CONTEXTS: ContextRules = {
  firstPhone: false,
  singlePhoneSil: true,
  arcCostAtLastPhone: false,
};
export const SPHINX_CONTEXTS: ContextRules = {
  firstPhone: true,
  singlePhoneSil: true,
  arcCostAtLastPhone: true,
};

/** One phone HMM of the network, as netHmm() reads it from the network's arrays. */
export interface NetHmm {
  /** indices into Network.senones, one per emitting state */
  senones: Int32Array;
  tmat: number;
  /** the graph arc whose word this phone belongs to */
  arc: number;
  /** phone position in the word */
  pos: number;
  /** CI phone */
  ci: number;
}

/**
 * The network in flat arrays, so that a search's network is a few dozen objects however many phones it
 * has (a network lives through its search, and as one object per phone and slot it was promoted to the old
 * generation object by object: ADR 0091, 0094). HMM h's fields sit at index h
 * (its senones at [h * nEmit, (h + 1) * nEmit)); its successors inside the word and the slots a word's
 * last phone exits into are lists in compressed rows (nextList[nextFirst[h] .. nextFirst[h + 1]), and
 * likewise exits, a slot's entered HMMs and its empty transitions).
 */
export interface Network {
  nHmms: number;
  /** emitting states per HMM (the stride of hmmSenones) */
  nEmit: number;
  /** per HMM and state: an index into `senones` */
  hmmSenones: Int32Array;
  hmmTmat: Int32Array;
  hmmArc: Int32Array;
  hmmPos: Int32Array;
  hmmCi: Int32Array;
  /**
   * cost paid on entering an HMM: the arc's and the word penalty on a word's first phone (with
   * arcCostAtLastPhone, the penalty on the first and the arc's on the last)
   */
  hmmEntryCost: Float64Array;
  /** the phone HMMs that may follow inside the word */
  nextFirst: Int32Array;
  nextList: Int32Array;
  /** a word's last phone: the slots it exits into (one per right context it serves); else none */
  exitFirst: Int32Array;
  exitList: Int32Array;
  /**
   * Slots, in topological order of their empty transitions (a slot's nulls point to later slots): a graph
   * state with the last phone before it (silence after fillers and at the start) and the first phone its
   * successors must start with (-1: any). Those three decide how the slots are wired; the search reads
   * only the wiring.
   */
  nSlots: number;
  /** a path may end here */
  slotFinal: Uint8Array;
  /** HMMs entered from a slot */
  enterFirst: Int32Array;
  enterList: Int32Array;
  /** slots reached through empty transitions, with their cost */
  nullFirst: Int32Array;
  nullSlot: Int32Array;
  nullCost: Float64Array;
  startSlot: number;
  /** the model senones the network uses; hmmSenones index this */
  senones: Int32Array;
  /** per codebook: scored by some senone of the network (the per-frame normaliser's codebooks) */
  codebooks: Uint8Array;
  graph: WordGraph;
}

/** HMM h of a network (a view: its senones share the network's array). */
export function netHmm(net: Network, h: number): NetHmm {
  const e = net.nEmit;
  return {
    senones: net.hmmSenones.subarray(h * e, (h + 1) * e),
    tmat: net.hmmTmat[h]!,
    arc: net.hmmArc[h]!,
    pos: net.hmmPos[h]!,
    ci: net.hmmCi[h]!,
  };
}

/** A network beyond this many HMMs is refused (far above any window of real speech). */
export const MAX_NETWORK_HMMS = 2_000_000;

const ANY = -1;

/**
 * Compressed rows from (row, value) pairs in the order they were added (rows keep that order). A network is
 * built in plain arrays, which die young with the build, and keeps only typed arrays of its exact sizes.
 */
function rows(nRows: number, row: number[], value: number[]): { first: Int32Array; list: Int32Array } {
  const first = new Int32Array(nRows + 1);
  const n = row.length;
  for (let i = 0; i < n; i++) first[row[i]! + 1]!++;
  for (let i = 0; i < nRows; i++) first[i + 1]! += first[i]!;
  const at = first.slice(0, nRows);
  const list = new Int32Array(n);
  for (let i = 0; i < n; i++) list[at[row[i]!]!++] = value[i]!;
  return { first, list };
}

/**
 * A network in the making: the HMMs' fields, their in-word successors and exits as (HMM, value) pairs, and
 * the slots, in plain arrays that die young with the build. Its helpers are methods, not closures made by
 * each build: a build's own closures were new functions to the JIT every time, and the optimised build
 * deoptimised on them ("wrong call target", ADR 0103).
 */
class Builder {
  readonly senoneIndex = new Map<number, number>();
  readonly senoneList: number[] = [];
  /** per model phone: its first senone index in hmmSenones' terms, once the network uses it */
  readonly senonesOfPhone = new Map<number, number>();
  readonly phoneSen: number[] = [];
  readonly hSen: number[] = [];
  readonly hTmat: number[] = [];
  readonly hArc: number[] = [];
  readonly hPos: number[] = [];
  readonly hCi: number[] = [];
  readonly hCost: number[] = [];
  readonly nextFrom: number[] = [];
  readonly nextTo: number[] = [];
  readonly exitFrom: number[] = [];
  readonly exitTo: number[] = [];
  H = 0;
  // the slots' fields; their entries and empty transitions are added slot by slot, in index order
  readonly sState: number[] = [];
  readonly sLc: number[] = [];
  readonly sRc: number[] = [];
  readonly slotIndex = new Map<number, number>();
  readonly nCi: number;
  readonly nEmit: number;

  constructor(readonly mdef: AcousticModel['mdef']) {
    this.nCi = mdef.ciPhones.length;
    this.nEmit = mdef.nEmitState;
  }

  slotOf(state: number, lc: number, rc: number): number {
    const nCi = this.nCi;
    const key = (state * (nCi + 1) + lc) * (nCi + 1) + (rc + 1);
    let i = this.slotIndex.get(key);
    if (i === undefined) {
      i = this.sState.length;
      this.slotIndex.set(key, i);
      this.sState.push(state);
      this.sLc.push(lc);
      this.sRc.push(rc);
    }
    return i;
  }

  addExit(h: number, slot: number): void {
    this.exitFrom.push(h);
    this.exitTo.push(slot);
  }

  follow(h: number, next: number): void {
    this.nextFrom.push(h);
    this.nextTo.push(next);
  }

  newHmm(pid: number, arc: number, pos: number, entryCost: number, exit = -1): number {
    if (this.H >= MAX_NETWORK_HMMS)
      throw new EngineError(
        'grammar_too_large',
        `the transcript is far longer than the audio can hold (a search network of over ${MAX_NETWORK_HMMS} phones)`,
      );
    const { mdef, nEmit, phoneSen } = this;
    // the phones of one network repeat (every instance of a word, every context that picks the same
    // triphone): their senone indices are looked up once per network
    let at = this.senonesOfPhone.get(pid);
    if (at === undefined) {
      at = phoneSen.length;
      const model = phoneSenones(mdef, pid);
      for (let k = 0; k < nEmit; k++) {
        const s = model[k]!;
        let i = this.senoneIndex.get(s);
        if (i === undefined) {
          i = this.senoneList.length;
          this.senoneIndex.set(s, i);
          this.senoneList.push(s);
        }
        phoneSen.push(i);
      }
      this.senonesOfPhone.set(pid, at);
    }
    for (let k = 0; k < nEmit; k++) this.hSen.push(phoneSen[at + k]!);
    this.hTmat.push(mdef.phoneTmat[pid]!);
    this.hArc.push(arc);
    this.hPos.push(pos);
    this.hCi.push(mdef.phoneBase[pid]!);
    this.hCost.push(entryCost);
    const h = this.H++;
    if (exit >= 0) this.addExit(h, exit);
    return h;
  }
}

export function buildNetwork(
  m: AcousticModel,
  g: WordGraph,
  rules: ContextRules = DEFAULT_CONTEXTS,
): Network {
  const { mdef } = m;
  if (mdef.sil < 0) throw new EngineError('engine_fault', 'the acoustic model has no silence phone');
  // In phases, each a function of its own: V8 compiles a long-running first build's hot loop on the stack
  // (on-stack replacement) as the whole function, and the phases after that loop, not run yet, then had no
  // type feedback; each reached one deoptimised the build (a long recording's first windows compiled it
  // eleven times, 82 ms each).
  const index = indexGraph(g, mdef.sil);
  const b = new Builder(mdef);
  const entries = wordHmms(b, g, index, rules);
  const startSlot = b.slotOf(g.start, mdef.sil, ANY);
  const links = slotLinks(b, g, index, entries);
  return pack(m, g, b, index.rank, links, startSlot);
}

/** What the build reads of the graph: its transitions by state, and the phones met at each state. */
interface GraphIndex {
  nullsFrom: GraphArc[][];
  wordArcsFrom: number[][];
  firsts: Set<number>[];
  lasts: Set<number>[];
  rank: Int32Array;
  rightContexts: Set<number>[];
}

function indexGraph(g: WordGraph, sil: number): GraphIndex {
  const { words } = g;
  const nullsFrom = Array.from({ length: g.states }, () => [] as GraphArc[]);
  const wordArcsFrom = Array.from({ length: g.states }, () => [] as number[]);
  // First phones of the words leaving each state (silence too: fillers, and the end).
  const firsts = Array.from({ length: g.states }, () => new Set<number>([sil]));
  // Last phones of the words arriving at each state (silence too: fillers, and the start).
  const lasts = Array.from({ length: g.states }, () => new Set<number>([sil]));
  // (loops, not callbacks, here and below: a function made anew by each build is compiled anew by the JIT)
  for (let i = 0; i < g.arcs.length; i++) {
    const a = g.arcs[i]!;
    if (a.word < 0) {
      if (a.to !== a.from) nullsFrom[a.from]!.push(a);
      continue;
    }
    wordArcsFrom[a.from]!.push(i);
    if (words[a.word]!.kind === 'word') {
      firsts[a.from]!.add(words[a.word]!.phones[0]!);
      lasts[a.to]!.add(words[a.word]!.phones.at(-1)!);
    }
  }
  const rank = topologicalRank(g.states, nullsFrom);
  const byRank = Array.from({ length: g.states }, (_, s) => s).sort((x, y) => rank[x]! - rank[y]!);
  for (const s of byRank) for (const a of nullsFrom[s]!) for (const p of lasts[s]!) lasts[a.to]!.add(p);
  // Right contexts seen from a state: its own successors' first phones and those one empty hop away.
  // (a loop, not firsts.map: the optimised build deoptimised on the array map made, "wrong map")
  const rightContexts: Set<number>[] = [];
  for (let s = 0; s < g.states; s++) {
    const all = new Set(firsts[s]!);
    for (const a of nullsFrom[s]!) for (const p of firsts[a.to]!) all.add(p);
    rightContexts.push(all);
  }
  return { nullsFrom, wordArcsFrom, firsts, lasts, rank, rightContexts };
}

/** Every word arc's HMMs; per word arc, its entry HMMs by left context (ANY for context-free words). */
function wordHmms(b: Builder, g: WordGraph, index: GraphIndex, rules: ContextRules): Map<number, number[]>[] {
  const { mdef } = b;
  const sil = mdef.sil;
  const { words } = g;
  const { lasts, rightContexts } = index;
  const entries: Map<number, number[]>[] = new Array(g.arcs.length);
  for (let ai = 0; ai < g.arcs.length; ai++) {
    const a = g.arcs[ai]!;
    if (a.word < 0) continue;
    const ph = words[a.word]!.phones;
    const n = ph.length;
    const cost = a.cost + g.wordPenalty;
    const byLc = new Map<number, number[]>();
    entries[ai] = byLc;
    if (words[a.word]!.kind !== 'word') {
      const exit = b.slotOf(a.to, sil, ANY);
      let prev = -1;
      for (let k = 0; k < n; k++) {
        const h = b.newHmm(ph[k]!, ai, k, k === 0 ? cost : 0, k === n - 1 ? exit : -1);
        if (prev >= 0) b.follow(prev, h);
        else byLc.set(ANY, [h]);
        prev = h;
      }
      continue;
    }
    const lcs = lasts[a.from]!;
    const rcs = rightContexts[a.to]!;
    if (n === 1) {
      // one phone, both edges in context: an instance per (left, right) pair with distinct senones, each
      // exiting to the slots of the right contexts it serves
      for (const lc of lcs) {
        const byPid = new Map<number, number>();
        for (const rc of rcs) {
          const pid = nearestPhone(mdef, ph[0]!, lc, rules.singlePhoneSil ? sil : rc, WPOS.single);
          const h = byPid.get(pid);
          if (h === undefined) byPid.set(pid, b.newHmm(pid, ai, 0, cost, b.slotOf(a.to, ph[0]!, rc)));
          else b.addExit(h, b.slotOf(a.to, ph[0]!, rc));
        }
        byLc.set(lc, [...byPid.values()]);
      }
      continue;
    }
    // The last phone per right context (instances shared by the contexts with the same senones).
    const lastCost = rules.arcCostAtLastPhone ? a.cost : 0;
    const firstCost = rules.arcCostAtLastPhone ? g.wordPenalty : cost;
    const lastByPid = new Map<number, number>();
    for (const rc of rcs) {
      const pid = nearestPhone(mdef, ph[n - 1]!, ph[n - 2]!, rc, WPOS.end);
      const h = lastByPid.get(pid);
      if (h === undefined)
        lastByPid.set(pid, b.newHmm(pid, ai, n - 1, lastCost, b.slotOf(a.to, ph[n - 1]!, rc)));
      else b.addExit(h, b.slotOf(a.to, ph[n - 1]!, rc));
    }
    const lastHmms = [...lastByPid.values()];
    let tails: number[] = lastHmms;
    for (let k = n - 2; k >= 1; k--) {
      const h = b.newHmm(nearestPhone(mdef, ph[k]!, ph[k - 1]!, ph[k + 1]!, WPOS.internal), ai, k, 0);
      for (const x of tails) b.follow(h, x);
      tails = [h];
    }
    const byPid = new Map<number, number>();
    const lowestLc = Math.min(...lcs);
    for (const lc of lcs) {
      const pid = nearestPhone(mdef, ph[0]!, rules.firstPhone ? lowestLc : lc, ph[1]!, WPOS.begin);
      let h = byPid.get(pid);
      if (h === undefined) {
        h = b.newHmm(pid, ai, 0, firstCost);
        for (const x of tails) b.follow(h, x);
        byPid.set(pid, h);
      }
      byLc.set(lc, [h]);
    }
  }
  return entries;
}

/** The slots' links: per slot, the word HMMs entered from it and its empty transitions to other slots. */
interface SlotLinks {
  enterAt: number[];
  enterList: number[];
  nullAt: number[];
  nullSlot: number[];
  nullCost: number[];
}

/**
 * The links of the start slot, every slot a word exits into, and those their empty transitions reach
 * (slots made here are linked in turn).
 */
function slotLinks(b: Builder, g: WordGraph, index: GraphIndex, entries: Map<number, number[]>[]): SlotLinks {
  const sil = b.mdef.sil;
  const { words } = g;
  const { wordArcsFrom, nullsFrom, firsts } = index;
  const { sState, sLc, sRc } = b;
  const enterAt: number[] = [];
  const enterList: number[] = [];
  const nullAt: number[] = [];
  const nullSlot: number[] = [];
  const nullCost: number[] = [];
  for (let si = 0; si < sState.length; si++) {
    const state = sState[si]!;
    const lc = sLc[si]!;
    const rc = sRc[si]!;
    enterAt.push(enterList.length);
    nullAt.push(nullSlot.length);
    for (const ai of wordArcsFrom[state]!) {
      const a = g.arcs[ai]!;
      const byLc = entries[ai]!;
      if (words[a.word]!.kind !== 'word') {
        if (rc === ANY || rc === sil) for (const h of byLc.get(ANY)!) enterList.push(h);
        continue;
      }
      const p1 = words[a.word]!.phones[0]!;
      if (rc !== ANY && rc !== p1) continue;
      const list = byLc.get(lc);
      if (!list) continue;
      if (words[a.word]!.phones.length === 1) for (const h of list) enterList.push(h);
      else enterList.push(list[0]!);
    }
    for (const a of nullsFrom[state]!) {
      // only where the right context can still be met, or to the end (an open-ended window's path may
      // stop before the word it was about to enter; pocketsphinx's ends take any right context too)
      if (rc !== ANY && !firsts[a.to]!.has(rc) && a.to !== g.final) continue;
      const to = b.slotOf(a.to, lc, rc);
      nullSlot.push(to);
      nullCost.push(a.cost);
    }
  }
  enterAt.push(enterList.length);
  nullAt.push(nullSlot.length);
  return { enterAt, enterList, nullAt, nullSlot, nullCost };
}

/** The network in typed arrays, its slots in the topological order of their states' empty transitions. */
function pack(
  m: AcousticModel,
  g: WordGraph,
  b: Builder,
  rank: Int32Array,
  links: SlotLinks,
  startSlot: number,
): Network {
  const { mdef } = m;
  const nEmit = mdef.nEmitState;
  const { sState, exitTo } = b;
  const { enterAt, enterList, nullAt, nullSlot, nullCost } = links;
  const S = sState.length;
  // Slots in the topological order of their states' empty transitions, then in creation order.
  const order = Array.from({ length: S }, (_, i) => i).sort(
    (x, y) => rank[sState[x]!]! - rank[sState[y]!]! || x - y,
  );
  const slotRank = new Int32Array(S);
  for (let r = 0; r < S; r++) slotRank[order[r]!] = r;
  const slotFinal = new Uint8Array(S);
  const enterFirst = new Int32Array(S + 1);
  const enters = new Int32Array(enterList.length);
  const nullFirst = new Int32Array(S + 1);
  const nullTo = new Int32Array(nullSlot.length);
  const nullCosts = new Float64Array(nullSlot.length);
  for (let r = 0, e = 0, z = 0; r < S; r++) {
    const si = order[r]!;
    // whatever the right context (an open-ended window's path stops before a word it did not reach)
    slotFinal[r] = sState[si] === g.final ? 1 : 0;
    enterFirst[r] = e;
    for (let q = enterAt[si]!; q < enterAt[si + 1]!; q++) enters[e++] = enterList[q]!;
    nullFirst[r] = z;
    for (let q = nullAt[si]!; q < nullAt[si + 1]!; q++, z++) {
      nullTo[z] = slotRank[nullSlot[q]!]!;
      nullCosts[z] = nullCost[q]!;
    }
    enterFirst[r + 1] = e;
    nullFirst[r + 1] = z;
  }
  for (let i = 0; i < exitTo.length; i++) exitTo[i] = slotRank[exitTo[i]!]!;
  const H = b.H;
  const next = rows(H, b.nextFrom, b.nextTo);
  const exits = rows(H, b.exitFrom, exitTo);

  const senones = Int32Array.from(b.senoneList);
  const codebooks = new Uint8Array(m.nCodebooks);
  for (const s of senones) codebooks[mdef.senoneCi[s]!] = 1;
  return {
    nHmms: H,
    nEmit,
    hmmSenones: Int32Array.from(b.hSen),
    hmmTmat: Int32Array.from(b.hTmat),
    hmmArc: Int32Array.from(b.hArc),
    hmmPos: Int32Array.from(b.hPos),
    hmmCi: Int32Array.from(b.hCi),
    hmmEntryCost: Float64Array.from(b.hCost),
    nextFirst: next.first,
    nextList: next.list,
    exitFirst: exits.first,
    exitList: exits.list,
    nSlots: S,
    slotFinal,
    enterFirst,
    enterList: enters,
    nullFirst,
    nullSlot: nullTo,
    nullCost: nullCosts,
    startSlot: slotRank[startSlot]!,
    senones,
    codebooks,
    graph: g,
  };
}

/** Each state's position in a topological order of the empty transitions (which must not form a cycle). */
function topologicalRank(states: number, nullsFrom: GraphArc[][]): Int32Array {
  const indegree = new Int32Array(states);
  for (const arcs of nullsFrom) for (const a of arcs) indegree[a.to]!++;
  const queue: number[] = [];
  for (let s = 0; s < states; s++) if (indegree[s] === 0) queue.push(s);
  const rank = new Int32Array(states).fill(-1);
  let next = 0;
  for (let i = 0; i < queue.length; i++) {
    const s = queue[i]!;
    rank[s] = next++;
    for (const a of nullsFrom[s]!) if (--indegree[a.to]! === 0) queue.push(a.to);
  }
  if (next < states) throw new EngineError('engine_fault', 'the grammar has a cycle of empty transitions');
  return rank;
}
