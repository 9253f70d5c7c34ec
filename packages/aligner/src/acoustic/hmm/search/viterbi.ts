// Viterbi search over a network (search/network.ts) by token passing: every active phone HMM keeps, per
// state, the best score of being there before the current frame is emitted and the phone occurrence it
// belongs to. A frame: emit and move inside every active HMM (3-state left-to-right, the model's
// transition matrices), prune against the frame's best (beam), pass exits to the next phone of the word
// (phone beam) or, from a word's last phone, to its slot (word beam), follow empty transitions, and enter
// the successors for the next frame. Memory is the HMMs plus one record per phone occurrence that ever
// won an entry (linear in the window, far below one per state and frame). Scores are log-likelihoods in
// the decoders' integer units (higher is better); the senone costs come precomputed per frame.
import { EngineError } from '../../../errors.ts';
import { TMAT_FORBIDDEN } from '../model/acoustic-model.ts';
import type { AcousticModel } from '../model/acoustic-model.ts';
import type { Network } from './network.ts';
import { LOGADD_WIDE } from '../scoring/senones.ts';
import type { SenoneCosts } from '../scoring/senones.ts';
import { nativeAddon, nativeAddonMissing } from '../../../native/addon.ts';

export interface Beams {
  /** widths below the frame's best, in units (positive) */
  beam: number;
  pbeam: number;
  wbeam: number;
}

/**
 * TAZAMUN_EMULATE=pocketsphinx: search as pocketsphinx's grammar search does (fsg_search.c, hmm.c,
 * ptm_mgau.c), for the parity tests. Where the two differ:
 * - senone scores are normalised by the best density among the codebooks of the frame's active senones
 *   and of those it scores to bridge gaps between them (SenoneCosts.activate, sphinxScoredSenones), not
 *   among all codebooks, so the clamp below it moves with the search;
 * - an HMM state's ties go as hmm_vit_eval_3st_lr breaks them (entering state 1 and leaving by state 1
 *   win ties; state 2 takes state 1's token on a tie with its own);
 * - entries (into a word or the next phone) must be strictly above the beam, as must the first entries
 *   before frame 0, whose beams count from 0;
 * - empty transitions are followed one hop from a word's exit, and only when the score after the
 *   transition is within the word beam (null_prop: a reached state does not pass it on);
 * - an HMM pruned in a frame and entered in the same frame keeps its other states' scores (pocketsphinx
 *   clears an HMM only when it leaves the active list).
 */
export interface SearchRules {
  sphinx?: boolean;
}

/** A phone occurrence on the best path: network HMM and its frames [start, end]. */
export interface PathPhone {
  hmm: number;
  start: number;
  end: number;
}

export interface SearchResult {
  phones: PathPhone[];
  /** the path's total score (units) */
  score: number;
  /**
   * frames the path covers, from the first: the window's, or up to the latest word exit when no word
   * ended on the last frame (pocketsphinx's rule: the last frame with a word exit, an accepting one there)
   */
  nFrames: number;
  /** per frame, the lowest cost among the senones the search scored there (its active ones) */
  bestActive: Int32Array;
  /**
   * sphinx: the model senones active in the last frame (the senones of the HMMs active there), which
   * pocketsphinx's state alignment starts from (search/state-align.ts)
   */
  lastActive?: Int32Array;
}

/**
 * The senones pocketsphinx scores for a set of active ones (acmod_flags2list): it lists them as gaps of
 * at most 255 from the previous one, so a longer gap is bridged by scoring the senones 255, 510, ... past
 * the previous active one (from 0) as well. `sorted`: the active model senones, ascending, distinct.
 */
export function sphinxScoredSenones(sorted: ArrayLike<number>, visit: (senone: number) => void): void {
  let l = 0;
  for (let i = 0; i < sorted.length; i++) {
    const s = sorted[i]!;
    while (s - l > 255) {
      l += 255;
      visit(l);
    }
    visit(s);
    l = s;
  }
}

/**
 * The entry records of a search (previous record, HMM, first frame), grown by doubling. One set is kept per
 * thread and reused by every search (`takeRecords`): fresh records per search were 57 % of the bytes a
 * one-thread job allocated in typed arrays (1,248 against 535 MiB on a 5-minute file).
 */
class Records {
  prev: Int32Array;
  hmm: Int32Array;
  start: Int32Array;
  n = 0;
  constructor(cap = 1 << 12) {
    this.prev = new Int32Array(cap);
    this.hmm = new Int32Array(cap);
    this.start = new Int32Array(cap);
  }
  add(prev: number, hmm: number, start: number): number {
    if (this.n === this.prev.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.prev = grow(this.prev);
      this.hmm = grow(this.hmm);
      this.start = grow(this.start);
    }
    this.prev[this.n] = prev;
    this.hmm[this.n] = hmm;
    this.start[this.n] = start;
    return this.n++;
  }
}

/**
 * Records kept between searches, up to this many entries (12 bytes each: 48 MiB). A window of a long file
 * takes about a million; a larger set is let go after its search rather than held by the thread.
 */
const KEPT_RECORDS = 1 << 22;
let spareRecords: Records | null = null;

/** This thread's records, emptied (fresh ones while a search holds them: searches do not nest today). */
function takeRecords(): Records {
  const rec = spareRecords ?? new Records();
  spareRecords = null;
  rec.n = 0;
  return rec;
}

function giveBackRecords(rec: Records): void {
  if (rec.prev.length <= KEPT_RECORDS) spareRecords = rec;
}

/**
 * Which search this thread runs under the default rules: the native module's (native/search.c, the same
 * path to the bit at about half the CPU) where it is built, else this file's; TAZAMUN_SEARCH=js asks
 * for this file's. Pocketsphinx's rules are searched here only.
 */
export function searchChoice(): { search: 'native' | 'js'; why: string | null } {
  if (process.env.TAZAMUN_SEARCH === 'js') return { search: 'js', why: 'TAZAMUN_SEARCH=js' };
  return nativeAddon() ? { search: 'native', why: null } : { search: 'js', why: nativeAddonMissing() };
}

/**
 * The best path through the network over `nFrames` frames; the network's senone k costs
 * `scorer.at(t, k)` at frame t, asked for only while an HMM using it is active. The path ends at the last
 * frame where a word ended, in an accepting slot there (an open-ended window often ends inside a long
 * word); null when that frame has none within the beams.
 */
export function viterbi(
  m: AcousticModel,
  net: Network,
  scorer: SenoneCosts,
  nFrames: number,
  beams: Beams,
  rules: SearchRules = {},
): SearchResult | null {
  if (m.mdef.nEmitState !== 3 || net.nEmit !== 3)
    throw new EngineError(
      'engine_fault',
      `only 3-state phone models are supported (this one has ${m.mdef.nEmitState})`,
    );
  const tables = rules.sphinx ? null : scorer.tables();
  if (tables && searchChoice().search === 'native') {
    const bestActive = new Int32Array(nFrames);
    const r = nativeAddon()!.search(
      net,
      tables,
      nFrames,
      beams.beam,
      beams.pbeam,
      beams.wbeam,
      transScores(m),
      LOGADD_WIDE,
      bestActive,
    );
    if (!r) return null;
    const phones: PathPhone[] = [];
    for (let i = 0; i < r.phones.length; i += 3)
      phones.push({ hmm: r.phones[i]!, start: r.phones[i + 1]!, end: r.phones[i + 2]! });
    return { phones, score: r.score, nFrames: r.nFrames, bestActive };
  }
  const rec = takeRecords();
  try {
    return search(rec, m, net, scorer, nFrames, beams, rules);
  } finally {
    releaseSearch();
    giveBackRecords(rec);
  }
}

const NEG = -Infinity;
const NO_F64 = new Float64Array(0);
const NO_I32 = new Int32Array(0);
const NO_RECORDS = new Records(1);

/** A transition's cost as a score (-Infinity where it is forbidden). */
const tscore = (c: number): number => (c >= TMAT_FORBIDDEN ? NEG : -c);

const transOf = new WeakMap<AcousticModel, Float64Array>();

/**
 * Per transition matrix of the model, its scores in the order the search reads them: 0->0, 0->1, 0->2,
 * 1->1, 1->2, 2->2, then the exits 1->3 and 2->3. Made once per model and thread.
 */
function transScores(m: AcousticModel): Float64Array {
  let trans = transOf.get(m);
  if (trans) return trans;
  const tp = m.tmat;
  const nTo = m.nTmatTo;
  const nTmat = tp.length / (3 * nTo);
  trans = new Float64Array(nTmat * 8);
  for (let x = 0; x < nTmat; x++) {
    const o = x * 3 * nTo;
    trans[x * 8] = tscore(tp[o]!);
    trans[x * 8 + 1] = tscore(tp[o + 1]!);
    trans[x * 8 + 2] = tscore(tp[o + 2]!);
    trans[x * 8 + 3] = tscore(tp[o + nTo + 1]!);
    trans[x * 8 + 4] = tscore(tp[o + nTo + 2]!);
    trans[x * 8 + 5] = tscore(tp[o + 2 * nTo + 2]!);
    trans[x * 8 + 6] = tscore(tp[o + nTo + 3]!);
    trans[x * 8 + 7] = tscore(tp[o + 2 * nTo + 3]!);
  }
  transOf.set(m, trans);
  return trans;
}

type Search = (
  records: Records,
  m: AcousticModel,
  net: Network,
  scorer: SenoneCosts,
  nFrames: number,
  beams: Beams,
  rules: SearchRules,
) => SearchResult | null;

/**
 * The search, made once per thread. Its helpers (leaveSlots, applyPending, ...) are closures over the state
 * of the search in progress, made here once: made anew by every search, each was a function the JIT had
 * not seen, run unoptimised and compiled again once hot, and a thread compiled the same code hundreds of
 * times in a long file (2026-12-06: 711 compiles in a 17-minute file, 1,450 with a piece thread, whose
 * compiles take the cores the two searches need). `release` lets go of the last search's arrays.
 */
function searcher(): { search: Search; release: () => void } {
  // the search in progress (searches do not nest: each runs to its end before the next starts)
  let rec = NO_RECORDS;
  let sphinx = false;
  let entryCost: Float64Array = NO_F64;
  let enterFirst: Int32Array = NO_I32;
  let enterList: Int32Array = NO_I32;
  let nullFirst: Int32Array = NO_I32;
  let nullSlot: Int32Array = NO_I32;
  let nullCost: Float64Array = NO_F64;
  let score: Float64Array = NO_F64;
  let hist: Int32Array = NO_I32;
  let nextActive: Int32Array = NO_I32;
  let nNext = 0;
  let activeStamp: Int32Array = NO_I32;
  // pending entries for the next frame
  let pendScore: Float64Array = NO_F64;
  let pendPrev: Int32Array = NO_I32;
  let pendStamp: Int32Array = NO_I32;
  let pendList: Int32Array = NO_I32;
  let nPend = 0;
  // slots touched this frame
  let slotScore: Float64Array = NO_F64;
  let slotHist: Int32Array = NO_I32;
  let slotStamp: Int32Array = NO_I32;
  let touched: Int32Array = NO_I32;
  let nTouched = 0;
  // sphinx: the entries empty transitions make, apart from the word exits' (one hop, within the word beam)
  let nullScore: Float64Array = NO_F64;
  let nullHist: Int32Array = NO_I32;
  let nullStamp: Int32Array = NO_I32;
  let nullList: Int32Array = NO_I32;
  let nNull = 0;
  let heap: Int32Array = NO_I32;
  let heapN = 0;
  let heapFrom = 0;
  // entries below the frame's beam are not made (a filler's entry penalty alone can exceed it)
  let entryFloor = NEG;

  const heapPush = (v: number) => {
    if (heapN === heap.length) {
      const b = new Int32Array(heap.length * 2);
      b.set(heap);
      heap = b;
    }
    let i = heapN++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heap[p]! <= v) break;
      heap[i] = heap[p]!;
      i = p;
    }
    heap[i] = v;
  };
  const heapPop = (): number => {
    const top = heap[0]!;
    const last = heap[--heapN]!;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= heapN) break;
      const r = l + 1;
      const c = r < heapN && heap[r]! < heap[l]! ? r : l;
      if (heap[c]! >= last) break;
      heap[i] = heap[c]!;
      i = c;
    }
    heap[i] = last;
    return top;
  };

  const pushNext = (h: number, t: number) => {
    if (activeStamp[h] === t) return;
    activeStamp[h] = t;
    if (nNext === nextActive.length) {
      const b = new Int32Array(nextActive.length * 2);
      b.set(nextActive);
      nextActive = b;
    }
    nextActive[nNext++] = h;
  };
  const propose = (h: number, s: number, prevRec: number, t: number) => {
    if (s < entryFloor || (sphinx && s === entryFloor)) return;
    if (pendStamp[h] !== t) {
      pendStamp[h] = t;
      pendScore[h] = NEG;
      if (nPend === pendList.length) {
        const b = new Int32Array(pendList.length * 2);
        b.set(pendList);
        pendList = b;
      }
      pendList[nPend++] = h;
    }
    if (s > pendScore[h]!) {
      pendScore[h] = s;
      pendPrev[h] = prevRec;
    }
  };
  const touch = (s: number, v: number, hRec: number, t: number) => {
    if (slotStamp[s] !== t) {
      slotStamp[s] = t;
      slotScore[s] = NEG;
      if (nTouched === touched.length) {
        const b = new Int32Array(touched.length * 2);
        b.set(touched);
        touched = b;
      }
      touched[nTouched++] = s;
    }
    if (v > slotScore[s]!) {
      slotScore[s] = v;
      slotHist[s] = hRec;
    }
  };
  const leaveSlotsSphinx = (t: number, threshold: number) => {
    nNull = 0;
    for (let i = 0; i < nTouched; i++) {
      const s = touched[i]!;
      const v = slotScore[s]!;
      for (let q = nullFirst[s]!, q1 = nullFirst[s + 1]!; q < q1; q++) {
        const u = v - nullCost[q]!;
        if (u < threshold) continue;
        const d = nullSlot[q]!;
        if (nullStamp[d] !== t) {
          nullStamp[d] = t;
          nullScore[d] = NEG;
          if (nNull === nullList.length) {
            const b = new Int32Array(nullList.length * 2);
            b.set(nullList);
            nullList = b;
          }
          nullList[nNull++] = d;
        }
        if (u > nullScore[d]!) {
          nullScore[d] = u;
          nullHist[d] = slotHist[s]!;
        }
      }
    }
    // entries: the word exits' first, then the empty transitions' (pocketsphinx's history order)
    for (let i = 0; i < nTouched; i++) {
      const s = touched[i]!;
      const v = slotScore[s]!;
      for (let q = enterFirst[s]!, q1 = enterFirst[s + 1]!; q < q1; q++)
        propose(enterList[q]!, v - entryCost[enterList[q]!]!, slotHist[s]!, t);
    }
    for (let i = 0; i < nNull; i++) {
      const s = nullList[i]!;
      const v = nullScore[s]!;
      for (let q = enterFirst[s]!, q1 = enterFirst[s + 1]!; q < q1; q++)
        propose(enterList[q]!, v - entryCost[enterList[q]!]!, nullHist[s]!, t);
    }
  };
  /**
   * Empty transitions and entries from the slots touched in frame t (entries emit from frame t + 1). Slots
   * are visited in index order, which is topological for empty transitions: a min-heap of touched slots.
   */
  const leaveSlots = (t: number, threshold: number) => {
    if (sphinx) {
      leaveSlotsSphinx(t, threshold);
      return;
    }
    heapN = 0;
    for (let i = 0; i < nTouched; i++) heapPush(touched[i]!);
    heapFrom = nTouched;
    while (heapN > 0) {
      const s = heapPop();
      const v = slotScore[s]!;
      if (v < threshold) continue;
      for (let q = nullFirst[s]!, q1 = nullFirst[s + 1]!; q < q1; q++) {
        touch(nullSlot[q]!, v - nullCost[q]!, slotHist[s]!, t);
        if (nTouched > heapFrom) {
          heapPush(touched[heapFrom]!);
          heapFrom = nTouched;
        }
      }
      for (let q = enterFirst[s]!, q1 = enterFirst[s + 1]!; q < q1; q++)
        propose(enterList[q]!, v - entryCost[enterList[q]!]!, slotHist[s]!, t);
    }
  };
  const applyPending = (t: number) => {
    // entries computed at frame t emit from frame t + 1
    for (let i = 0; i < nPend; i++) {
      const h = pendList[i]!;
      const v = pendScore[h]!;
      if (v > score[h * 3]!) {
        score[h * 3] = v;
        hist[h * 3] = rec.add(pendPrev[h]!, h, t + 1);
      }
      pushNext(h, t + 1);
    }
    nPend = 0;
  };

  const release = (): void => {
    rec = NO_RECORDS;
    entryCost = nullCost = score = pendScore = slotScore = nullScore = NO_F64;
    enterFirst = enterList = nullFirst = nullSlot = hist = nextActive = activeStamp = NO_I32;
    pendPrev = pendStamp = pendList = slotHist = slotStamp = touched = NO_I32;
    nullHist = nullStamp = nullList = heap = NO_I32;
  };

  const search: Search = (records, m, net, scorer, nFrames, beams, rules) => {
    rec = records;
    sphinx = rules.sphinx === true;
    const nSen = net.senones.length;
    const H = net.nHmms;
    const S = net.nSlots;
    // per HMM: senones, transitions as scores (-cost; -Infinity when forbidden), entry cost, exits
    const sen = net.hmmSenones;
    const tmatOf = net.hmmTmat;
    entryCost = net.hmmEntryCost;
    const { exitFirst, exitList, nextFirst, nextList } = net;
    ({ enterFirst, enterList, nullFirst, nullSlot, nullCost } = net);
    const slotFinal = net.slotFinal;
    const trans = transScores(m);
    score = new Float64Array(H * 3).fill(NEG);
    hist = new Int32Array(H * 3).fill(-1);
    const exitScore = new Float64Array(H);
    const exitHist = new Int32Array(H);
    let active: Int32Array = new Int32Array(Math.min(H, 1024));
    let nActive = 0;
    nextActive = new Int32Array(active.length);
    nNext = 0;
    activeStamp = new Int32Array(H).fill(-2);
    // pending entries for the next frame
    pendScore = new Float64Array(H).fill(NEG);
    pendPrev = new Int32Array(H);
    pendStamp = new Int32Array(H).fill(-2);
    pendList = new Int32Array(1024);
    nPend = 0;
    // slots touched this frame
    slotScore = new Float64Array(S).fill(NEG);
    slotHist = new Int32Array(S);
    slotStamp = new Int32Array(S).fill(-2);
    touched = new Int32Array(256);
    nTouched = 0;
    // this frame's senone costs, computed for the senones of the active HMMs only
    const frameCost = new Int32Array(nSen);
    const costStamp = new Int32Array(nSen).fill(-1);
    const bestActive = new Int32Array(nFrames);
    // sphinx: the codebooks of the senones pocketsphinx scores in the frame (the normaliser's)
    const cbActive = new Uint8Array(sphinx ? m.nCodebooks : 0);
    const senoneCb = m.mdef.senoneCi;
    const modelSenone = net.senones;
    const senMark = new Int32Array(sphinx ? m.mdef.senoneCi.length : 0).fill(-1);
    let actList: number[] = [];
    heap = new Int32Array(256);
    heapN = 0;
    heapFrom = 0;
    entryFloor = NEG;
    // sphinx: the entries empty transitions make, apart from the word exits' (one hop, within the word beam)
    nullScore = new Float64Array(sphinx ? S : 0);
    nullHist = new Int32Array(sphinx ? S : 0);
    nullStamp = new Int32Array(sphinx ? S : 0).fill(-2);
    nullList = new Int32Array(sphinx ? 256 : 0);
    nNull = 0;

    // Before the first frame: the start slot, its empty transitions and entries (pocketsphinx: its beams
    // below a best score of 0).
    nTouched = 0;
    touch(net.startSlot, 0, -1, -1);
    if (sphinx) entryFloor = -beams.beam;
    leaveSlots(-1, sphinx ? -beams.wbeam : NEG);
    applyPending(-1);
    [active, nextActive] = [nextActive, active];
    nActive = nNext;
    nNext = 0;

    let bestFinal = NEG;
    let bestFinalHist = -1;
    let lastExit = -1;
    for (let t = 0; t < nFrames; t++) {
      let best = NEG;
      // 0. the costs of the active HMMs' senones at frame t
      let frameBest = 2 ** 30;
      if (sphinx) {
        actList = [];
        for (let i = 0; i < nActive; i++) {
          const b3 = active[i]! * 3;
          for (let j = 0; j < 3; j++) {
            const ms = modelSenone[sen[b3 + j]!]!;
            if (senMark[ms] === t) continue;
            senMark[ms] = t;
            actList.push(ms);
          }
        }
        actList.sort((a, b) => a - b);
        cbActive.fill(0);
        sphinxScoredSenones(actList, (ms) => (cbActive[senoneCb[ms]!] = 1));
        scorer.activate(t, cbActive);
      }
      for (let i = 0; i < nActive; i++) {
        const b3 = active[i]! * 3;
        for (let j = 0; j < 3; j++) {
          const k = sen[b3 + j]!;
          if (costStamp[k] === t) continue;
          costStamp[k] = t;
          const c = sphinx ? scorer.atActive(t, k) : scorer.at(t, k);
          frameCost[k] = c;
          if (c < frameBest) frameBest = c;
        }
      }
      bestActive[t] = frameBest;
      // 1. emit frame t and move inside every active HMM
      for (let i = 0; i < nActive; i++) {
        const h = active[i]!;
        const b3 = h * 3;
        const e0 = score[b3]! - frameCost[sen[b3]!]!;
        const e1 = score[b3 + 1]! - frameCost[sen[b3 + 1]!]!;
        const e2 = score[b3 + 2]! - frameCost[sen[b3 + 2]!]!;
        const h0 = hist[b3]!;
        const h1 = hist[b3 + 1]!;
        const h2 = hist[b3 + 2]!;
        const tr = tmatOf[h]! * 8;
        if (sphinx) {
          // hmm_vit_eval_3st_lr's order and ties
          const x2 = e2 + trans[tr + 7]!;
          const x1 = e1 + trans[tr + 6]!;
          if (x2 > x1) {
            exitScore[h] = x2;
            exitHist[h] = h2;
          } else {
            exitScore[h] = x1;
            exitHist[h] = h1;
          }
          const a22 = e2 + trans[tr + 5]!;
          const a12 = e1 + trans[tr + 4]!;
          const a02 = e0 + trans[tr + 2]!;
          let n2: number;
          if (a22 > a12) {
            if (a02 > a22) {
              n2 = a02;
              hist[b3 + 2] = h0;
            } else n2 = a22;
          } else if (a02 > a12) {
            n2 = a02;
            hist[b3 + 2] = h0;
          } else {
            n2 = a12;
            hist[b3 + 2] = h1;
          }
          const a11 = e1 + trans[tr + 3]!;
          const a01 = e0 + trans[tr + 1]!;
          let n1: number;
          if (a11 > a01) n1 = a11;
          else {
            n1 = a01;
            hist[b3 + 1] = h0;
          }
          const n0 = e0 + trans[tr]!;
          score[b3] = n0;
          score[b3 + 1] = n1;
          score[b3 + 2] = n2;
          let hb = exitScore[h]!;
          if (n2 > hb) hb = n2;
          if (n1 > hb) hb = n1;
          if (n0 > hb) hb = n0;
          if (hb > best) best = hb;
          continue;
        }
        // exit (non-emitting state 3)
        const x2 = e2 + trans[tr + 7]!;
        const x1 = e1 + trans[tr + 6]!;
        if (x2 >= x1) {
          exitScore[h] = x2;
          exitHist[h] = h2;
        } else {
          exitScore[h] = x1;
          exitHist[h] = h1;
        }
        // state 2
        let n2 = e2 + trans[tr + 5]!;
        let g2 = h2;
        const a12 = e1 + trans[tr + 4]!;
        if (a12 > n2) {
          n2 = a12;
          g2 = h1;
        }
        const a02 = e0 + trans[tr + 2]!;
        if (a02 > n2) {
          n2 = a02;
          g2 = h0;
        }
        // state 1
        let n1 = e1 + trans[tr + 3]!;
        let g1 = h1;
        const a01 = e0 + trans[tr + 1]!;
        if (a01 > n1) {
          n1 = a01;
          g1 = h0;
        }
        const n0 = e0 + trans[tr]!;
        score[b3] = n0;
        score[b3 + 1] = n1;
        score[b3 + 2] = n2;
        hist[b3 + 1] = g1;
        hist[b3 + 2] = g2;
        let hb = n0 > n1 ? n0 : n1;
        if (n2 > hb) hb = n2;
        if (exitScore[h]! > hb) hb = exitScore[h]!;
        if (hb > best) best = hb;
      }
      if (best === NEG) return null;
      const thr = best - beams.beam;
      const pthr = best - beams.pbeam;
      const wthr = best - beams.wbeam;
      entryFloor = thr;
      // 2. exits: to the next phone of the word, or from a word's last phone to its slot
      nTouched = 0;
      for (let i = 0; i < nActive; i++) {
        const h = active[i]!;
        const x = exitScore[h]!;
        const e0 = exitFirst[h]!;
        const e1 = exitFirst[h + 1]!;
        if (e1 > e0) {
          if (x >= wthr) for (let e = e0; e < e1; e++) touch(exitList[e]!, x, exitHist[h]!, t);
        } else if (x >= pthr) {
          for (let q = nextFirst[h]!, q1 = nextFirst[h + 1]!; q < q1; q++)
            propose(nextList[q]!, x - entryCost[nextList[q]!]!, exitHist[h]!, t);
        }
      }
      // 3. slots: the best accepting one at the last frame, empty transitions, entries
      leaveSlots(t, wthr);
      if (nTouched > 0) {
        // the latest frame with a word exit, and the best accepting slot in it
        lastExit = t;
        bestFinal = NEG;
        bestFinalHist = -1;
        for (let i = 0; i < nTouched; i++) {
          const s = touched[i]!;
          if (slotFinal[s] && slotScore[s]! > bestFinal) {
            bestFinal = slotScore[s]!;
            bestFinalHist = slotHist[s]!;
          }
        }
        for (let i = 0; i < nNull; i++) {
          const s = nullList[i]!;
          if (slotFinal[s] && nullScore[s]! > bestFinal) {
            bestFinal = nullScore[s]!;
            bestFinalHist = nullHist[s]!;
          }
        }
      }
      nNull = 0;
      // 4. prune, then add the entered HMMs
      nNext = 0;
      for (let i = 0; i < nActive; i++) {
        const h = active[i]!;
        const b3 = h * 3;
        if (score[b3]! >= thr || score[b3 + 1]! >= thr || score[b3 + 2]! >= thr) pushNext(h, t + 1);
        else if (sphinx && (exitScore[h]! >= thr || pendStamp[h] === t)) {
          // pocketsphinx keeps an HMM whose exit is within the beam, and one entered in this frame keeps
          // its other states: it is cleared only when it leaves the active list
          pushNext(h, t + 1);
        } else {
          score[b3] = score[b3 + 1] = score[b3 + 2] = NEG;
          activeStamp[h] = -2;
        }
      }
      applyPending(t);
      [active, nextActive] = [nextActive, active];
      nActive = nNext;
    }
    if (bestFinalHist < 0 && bestFinal === NEG) return null;
    // Trace back the phone occurrences.
    const phones: PathPhone[] = [];
    let end = lastExit;
    for (let r = bestFinalHist; r >= 0; r = rec.prev[r]!) {
      const start = rec.start[r]!;
      phones.push({ hmm: rec.hmm[r]!, start, end });
      end = start - 1;
    }
    phones.reverse();
    return {
      phones,
      score: bestFinal,
      nFrames: lastExit + 1,
      bestActive,
      ...(sphinx ? { lastActive: Int32Array.from(actList) } : {}),
    };
  };
  return { search, release };
}

const { search, release: releaseSearch } = searcher();
