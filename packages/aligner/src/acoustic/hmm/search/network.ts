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

/** One phone HMM of the network. */
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
  /**
   * cost paid on entering this HMM: the arc's and the word penalty on a word's first phone (with
   * arcCostAtLastPhone, the penalty on the first and the arc's on the last)
   */
  entryCost: number;
  /** the phone HMMs that may follow inside the word */
  next: number[];
  /** the word's last phone: the slots it exits into (one per right context it serves), else empty */
  exitSlots: number[];
}

export interface Slot {
  state: number;
  /** the last phone before this point (silence after fillers and at the start) */
  lc: number;
  /** the first phone the successors must start with; -1: any */
  rc: number;
  /** HMMs entered from here */
  enter: number[];
  /** slots reached through empty transitions, with their cost */
  nulls: { slot: number; cost: number }[];
  /** a path may end here */
  final: boolean;
}

export interface Network {
  hmms: NetHmm[];
  /** in topological order of their empty transitions (a slot's nulls point to later slots) */
  slots: Slot[];
  startSlot: number;
  /** the model senones the network uses; NetHmm.senones index this */
  senones: Int32Array;
  /** per codebook: scored by some senone of the network (the per-frame normaliser's codebooks) */
  codebooks: Uint8Array;
  graph: WordGraph;
}

/** A network beyond this many HMMs is refused (far above any window of real speech). */
export const MAX_NETWORK_HMMS = 2_000_000;

const ANY = -1;

export function buildNetwork(
  m: AcousticModel,
  g: WordGraph,
  rules: ContextRules = DEFAULT_CONTEXTS,
): Network {
  const { mdef } = m;
  const sil = mdef.sil;
  if (sil < 0) throw new EngineError('engine_fault', 'the acoustic model has no silence phone');
  const { words } = g;
  const contextual = (w: number) => words[w]!.kind === 'word';
  const nullsFrom = Array.from({ length: g.states }, () => [] as GraphArc[]);
  const wordArcsFrom = Array.from({ length: g.states }, () => [] as number[]);
  // First phones of the words leaving each state (silence too: fillers, and the end).
  const firsts = Array.from({ length: g.states }, () => new Set<number>([sil]));
  // Last phones of the words arriving at each state (silence too: fillers, and the start).
  const lasts = Array.from({ length: g.states }, () => new Set<number>([sil]));
  g.arcs.forEach((a, i) => {
    if (a.word < 0) {
      if (a.to !== a.from) nullsFrom[a.from]!.push(a);
      return;
    }
    wordArcsFrom[a.from]!.push(i);
    if (contextual(a.word)) {
      firsts[a.from]!.add(words[a.word]!.phones[0]!);
      lasts[a.to]!.add(words[a.word]!.phones.at(-1)!);
    }
  });
  const rank = topologicalRank(g.states, nullsFrom);
  const byRank = Array.from({ length: g.states }, (_, s) => s).sort((x, y) => rank[x]! - rank[y]!);
  for (const s of byRank) for (const a of nullsFrom[s]!) for (const p of lasts[s]!) lasts[a.to]!.add(p);
  // Right contexts seen from a state: its own successors' first phones and those one empty hop away.
  const rightContexts = firsts.map((own, s) => {
    const all = new Set(own);
    for (const a of nullsFrom[s]!) for (const p of firsts[a.to]!) all.add(p);
    return all;
  });

  const senoneIndex = new Map<number, number>();
  const senoneList: number[] = [];
  const senonesOfPhone = new Map<number, Int32Array>();
  const hmms: NetHmm[] = [];
  const slots: Slot[] = [];
  const slotIndex = new Map<number, number>();
  const nCi = mdef.ciPhones.length;
  const slotOf = (state: number, lc: number, rc: number): number => {
    const key = (state * (nCi + 1) + lc) * (nCi + 1) + (rc + 1);
    let i = slotIndex.get(key);
    if (i === undefined) {
      i = slots.length;
      slotIndex.set(key, i);
      slots.push({
        state,
        lc,
        rc,
        enter: [],
        nulls: [],
        // whatever the right context (an open-ended window's path stops before a word it did not reach)
        final: state === g.final,
      });
    }
    return i;
  };
  const newHmm = (pid: number, arc: number, pos: number, entryCost: number, exitSlots: number[]): number => {
    if (hmms.length >= MAX_NETWORK_HMMS)
      throw new EngineError(
        'grammar_too_large',
        `the transcript is far longer than the audio can hold (a search network of over ${MAX_NETWORK_HMMS} phones)`,
      );
    // the phones of one network repeat (every instance of a word, every context that picks the same
    // triphone): their state lists are built once per network and shared, never written after
    let senones = senonesOfPhone.get(pid);
    if (senones === undefined) {
      const model = phoneSenones(mdef, pid);
      senones = new Int32Array(model.length);
      for (let k = 0; k < model.length; k++) {
        const s = model[k]!;
        let i = senoneIndex.get(s);
        if (i === undefined) {
          i = senoneList.length;
          senoneIndex.set(s, i);
          senoneList.push(s);
        }
        senones[k] = i;
      }
      senonesOfPhone.set(pid, senones);
    }
    hmms.push({
      senones,
      tmat: mdef.phoneTmat[pid]!,
      arc,
      pos,
      ci: mdef.phoneBase[pid]!,
      entryCost,
      next: [],
      exitSlots,
    });
    return hmms.length - 1;
  };

  /** Per word arc: its entry HMMs by left context (ANY for context-free words). */
  const entries: Map<number, number[]>[] = new Array(g.arcs.length);
  g.arcs.forEach((a, ai) => {
    if (a.word < 0) return;
    const ph = words[a.word]!.phones;
    const n = ph.length;
    const cost = a.cost + g.wordPenalty;
    const byLc = new Map<number, number[]>();
    entries[ai] = byLc;
    if (!contextual(a.word)) {
      const exit = slotOf(a.to, sil, ANY);
      const chain = ph.map((p, k) => newHmm(p, ai, k, k === 0 ? cost : 0, k === n - 1 ? [exit] : []));
      for (let k = 0; k + 1 < n; k++) hmms[chain[k]!]!.next.push(chain[k + 1]!);
      byLc.set(ANY, [chain[0]!]);
      return;
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
          if (h === undefined) byPid.set(pid, newHmm(pid, ai, 0, cost, [slotOf(a.to, ph[0]!, rc)]));
          else hmms[h]!.exitSlots.push(slotOf(a.to, ph[0]!, rc));
        }
        byLc.set(lc, [...byPid.values()]);
      }
      return;
    }
    // The last phone per right context (instances shared by the contexts with the same senones).
    const lastCost = rules.arcCostAtLastPhone ? a.cost : 0;
    const firstCost = rules.arcCostAtLastPhone ? g.wordPenalty : cost;
    const lastByPid = new Map<number, number>();
    for (const rc of rcs) {
      const pid = nearestPhone(mdef, ph[n - 1]!, ph[n - 2]!, rc, WPOS.end);
      const h = lastByPid.get(pid);
      if (h === undefined)
        lastByPid.set(pid, newHmm(pid, ai, n - 1, lastCost, [slotOf(a.to, ph[n - 1]!, rc)]));
      else hmms[h]!.exitSlots.push(slotOf(a.to, ph[n - 1]!, rc));
    }
    const lastHmms = [...lastByPid.values()];
    let tails: number[] = lastHmms;
    for (let k = n - 2; k >= 1; k--) {
      const h = newHmm(nearestPhone(mdef, ph[k]!, ph[k - 1]!, ph[k + 1]!, WPOS.internal), ai, k, 0, []);
      hmms[h]!.next.push(...tails);
      tails = [h];
    }
    const byPid = new Map<number, number>();
    const lowestLc = Math.min(...lcs);
    for (const lc of lcs) {
      const pid = nearestPhone(mdef, ph[0]!, rules.firstPhone ? lowestLc : lc, ph[1]!, WPOS.begin);
      let h = byPid.get(pid);
      if (h === undefined) {
        h = newHmm(pid, ai, 0, firstCost, []);
        hmms[h]!.next.push(...tails);
        byPid.set(pid, h);
      }
      byLc.set(lc, [h]);
    }
  });

  // Slots: the start, then every slot a word exits into, then those their empty transitions reach.
  const startSlot = slotOf(g.start, sil, ANY);
  const wire = (si: number) => {
    const s = slots[si]!;
    for (const ai of wordArcsFrom[s.state]!) {
      const a = g.arcs[ai]!;
      const byLc = entries[ai]!;
      if (!contextual(a.word)) {
        if (s.rc === ANY || s.rc === sil) s.enter.push(...byLc.get(ANY)!);
        continue;
      }
      const p1 = words[a.word]!.phones[0]!;
      if (s.rc !== ANY && s.rc !== p1) continue;
      const list = byLc.get(s.lc);
      if (!list) continue;
      if (words[a.word]!.phones.length === 1) s.enter.push(...list);
      else s.enter.push(list[0]!);
    }
    for (const a of nullsFrom[s.state]!) {
      // only where the right context can still be met, or to the end (an open-ended window's path may
      // stop before the word it was about to enter; pocketsphinx's ends take any right context too)
      if (s.rc !== ANY && !firsts[a.to]!.has(s.rc) && a.to !== g.final) continue;
      s.nulls.push({ slot: slotOf(a.to, s.lc, s.rc), cost: a.cost });
    }
  };
  for (let si = 0; si < slots.length; si++) wire(si);
  // Slots in the topological order of their states' empty transitions, then in creation order.
  const order = slots
    .map((_, i) => i)
    .sort((x, y) => rank[slots[x]!.state]! - rank[slots[y]!.state]! || x - y);
  const slotRank = new Int32Array(slots.length);
  order.forEach((si, r) => (slotRank[si] = r));
  const sorted = order.map((si) => slots[si]!);
  for (const s of sorted) for (const n of s.nulls) n.slot = slotRank[n.slot]!;
  for (const h of hmms) {
    const exits = h.exitSlots;
    for (let k = 0; k < exits.length; k++) exits[k] = slotRank[exits[k]!]!;
  }

  const senones = Int32Array.from(senoneList);
  const codebooks = new Uint8Array(m.nCodebooks);
  for (const s of senones) codebooks[mdef.senoneCi[s]!] = 1;
  return { hmms, slots: sorted, startSlot: slotRank[startSlot]!, senones, codebooks, graph: g };
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
