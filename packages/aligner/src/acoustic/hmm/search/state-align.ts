// TAZAMUN_EMULATE=pocketsphinx only (the parity tests): pocketsphinx's second pass, the state alignment
// behind the word, phone and state segments soundswallower reports at align_level 1 (decoder_alignment,
// ps_alignment.c, state_align_search.c). The grammar search's words (fillers included) are expanded into
// phones with their true cross-word contexts and searched again, each word's phones held to the word's
// frames, without beams; the word boundaries stay where the grammar search put them, and the phones'
// boundaries and every segment's score come from this pass. The scores are what the back-end reads as
// each word's probability p (which decides, among other things, whether a window is searched again with
// the garbage loop), so the emulation reproduces how they are made, quirks included:
// - a phone's successor in the same word is entered the moment the phone is, with the phone's exit score
//   (its initial worst score): every phone of a word is active from the word's first frame;
// - the active senones are never cleared in this pass (acmod_clear_active is the grammar search's): each
//   frame's normalisation (the codebooks' best density, the best senone at 0) runs over every senone
//   active so far, from those of the grammar search's last frame on, and over the senones pocketsphinx
//   scores to bridge gaps of more than 255 between them (sphinxScoredSenones);
// - the first state's score is never set (0), and the backtrace looks up tokens one frame behind;
// - when the grammar search's path ends more than two frames before the window, the frames after it
//   have no token and the alignment fails (decoder.ts answers no result, as soundswallower does); when
//   it ends one or two frames before, the last state absorbs them.
import type { AcousticModel } from '../model/acoustic-model.ts';
import { WPOS, nearestPhone, phoneSenones } from '../model/mdef.ts';
import type { SenoneCosts } from '../scoring/senones.ts';
import { sphinxScoredSenones } from './viterbi.ts';

/** pocketsphinx's WORST_SCORE (hmm.h): scores are clamped there. */
const WORST = -536870912;
/** a transition of this cost (a zero probability) into the exit or state 2 is not taken (TMAT_WORST_SCORE) */
const TMAT_WORST = 255;

export interface AlignWord {
  /** CI phones (a filler: its one phone) */
  phones: number[];
  /** first and last frame the grammar search gave the word */
  start: number;
  end: number;
}

export interface AlignedSegment {
  start: number;
  /** frames */
  duration: number;
  /** the segment's score in the search's units (pocketsphinx reports exp in base 1.0001 of it) */
  score: number;
}

export interface AlignedWord extends AlignedSegment {
  phones: (AlignedSegment & { ci: number })[];
}

/**
 * The state alignment of `words` (contiguous, from frame 0) over `nFrames` frames. `costs`: pocketsphinx's
 * senone costs (SenoneCosts with its densities) of every senone of the model, by model senone number;
 * `lastActive`: the senones active in the grammar search's last frame. Null when pocketsphinx's alignment
 * fails.
 */
export function stateAlign(
  m: AcousticModel,
  words: AlignWord[],
  costs: SenoneCosts,
  lastActive: ArrayLike<number>,
  nFrames: number,
): AlignedWord[] | null {
  const { mdef } = m;
  const sil = mdef.sil;
  // The phones, as alignment_populate makes them (true left and right contexts across words).
  const phoneCi: number[] = [];
  const phoneWord: number[] = [];
  const pids: number[] = [];
  let lc = sil;
  words.forEach((w, wi) => {
    const ph = w.phones;
    const n = ph.length;
    const rc = wi + 1 < words.length ? words[wi + 1]!.phones[0]! : sil;
    for (let k = 0; k < n; k++) {
      let pid: number;
      if (n === 1) pid = nearestPhone(mdef, ph[0]!, lc, rc, WPOS.single);
      else if (k === 0) pid = nearestPhone(mdef, ph[0]!, lc, ph[1]!, WPOS.begin);
      else if (k === n - 1) pid = nearestPhone(mdef, ph[k]!, ph[k - 1]!, rc, WPOS.end);
      else pid = nearestPhone(mdef, ph[k]!, ph[k - 1]!, ph[k + 1]!, WPOS.internal);
      pids.push(pid);
      phoneCi.push(ph[k]!);
      phoneWord.push(wi);
    }
    lc = ph[n - 1]!;
  });
  const P = pids.length;
  if (P === 0) return null;
  const S = P * 3;
  const sen = new Int32Array(S);
  pids.forEach((pid, i) => sen.set(phoneSenones(mdef, pid), i * 3));
  const nTo = m.nTmatTo;
  // transitions as pocketsphinx's tprob (-cost); the CI phone's matrix (bin_mdef_pid2tmatid of the base)
  const tp = (i: number, from: number, to: number): number =>
    -m.tmat[(mdef.phoneTmat[phoneCi[i]!]! * 3 + from) * nTo + to]!;
  const sf = new Int32Array(P);
  const ef = new Int32Array(P);
  for (let i = 0; i < P; i++) {
    const w = words[phoneWord[i]!]!;
    sf[i] = Math.max(0, w.start);
    ef[i] = w.end + 1;
  }
  // HMM state: scores and histories of states 0 (the entry), 1, 2; the exit; the frame it is active for
  const score = new Float64Array(S).fill(WORST);
  const hist = new Int32Array(S).fill(-1);
  const outScore = new Float64Array(P).fill(WORST);
  const outHist = new Int32Array(P).fill(-1);
  const hmmFrame = new Int32Array(P).fill(-1);
  // hmm_enter(hmms, 0, 0, 0)
  score[0] = 0;
  hist[0] = 0;
  hmmFrame[0] = 0;
  // tokens per frame, for the phones from `tokBase[f]` on (the others' are -1)
  const tokBase = new Int32Array(nFrames);
  const tokId: Int32Array[] = [];
  const tokScore: Float64Array[] = [];
  const nSen = mdef.senoneCi.length;
  const senscr = new Float64Array(nSen);
  // the active senones, ascending (they only grow), and those pocketsphinx scores with them
  const isActive = new Uint8Array(nSen);
  const activeSorted: number[] = [];
  const addActive = (s: number): boolean => {
    if (isActive[s]) return false;
    isActive[s] = 1;
    activeSorted.push(s);
    return true;
  };
  for (let i = 0; i < lastActive.length; i++) addActive(lastActive[i]!);
  activeSorted.sort((a, b) => a - b);
  let scored: number[] = [];
  let scoredValid = false;
  const cbActive = new Uint8Array(m.nCodebooks);
  // phones before `lo` are done with (past their word's frames, never active again)
  let lo = 0;
  for (let f = 0; f < nFrames; f++) {
    while (lo < P - 1 && hmmFrame[lo]! >= 0 && hmmFrame[lo]! < f && hmmFrame[lo + 1]! >= 0) lo++;
    // the senone scores: the active phones' senones join the active set, every senone scored with it
    // takes part in the codebooks' normaliser, and the best of them scores 0
    let grew = false;
    for (let i = lo; i < P && hmmFrame[i]! >= 0; i++) {
      if (hmmFrame[i] !== f) continue;
      for (let j = 0; j < 3; j++) if (addActive(sen[i * 3 + j]!)) grew = true;
    }
    if (grew || !scoredValid) {
      activeSorted.sort((a, b) => a - b);
      const next: number[] = [];
      sphinxScoredSenones(activeSorted, (s) => next.push(s));
      scored = next;
      scoredValid = true;
      cbActive.fill(0);
      for (const s of scored) cbActive[mdef.senoneCi[s]!] = 1;
    }
    if (scored.length) {
      costs.activate(f, cbActive);
      let best = Infinity;
      for (const s of scored) {
        senscr[s] = costs.atActive(f, s);
        if (senscr[s]! < best) best = senscr[s]!;
      }
      for (const s of scored) senscr[s] = senscr[s]! - best;
    }
    // evaluate_hmms: hmm_vit_eval_3st_lr on every active phone
    for (let i = lo; i < P && hmmFrame[i]! >= 0; i++) {
      if (hmmFrame[i]! < f) continue;
      const b = i * 3;
      const s2 = score[b + 2]! - senscr[sen[b + 2]!]!;
      const s1 = score[b + 1]! - senscr[sen[b + 1]!]!;
      const s0 = score[b]! - senscr[sen[b]!]!;
      let t2 = -Infinity;
      if (s1 > WORST) {
        const t1 = s2 + tp(i, 2, 3);
        if (tp(i, 1, 3) > -TMAT_WORST) t2 = s1 + tp(i, 1, 3);
        let s3: number;
        if (t1 > t2) {
          s3 = t1;
          outHist[i] = hist[b + 2]!;
        } else {
          s3 = t2;
          outHist[i] = hist[b + 1]!;
        }
        outScore[i] = s3 < WORST ? WORST : s3;
      }
      const u0 = s2 + tp(i, 2, 2);
      const u1 = s1 + tp(i, 1, 2);
      if (tp(i, 0, 2) > -TMAT_WORST) t2 = s0 + tp(i, 0, 2);
      let n2: number;
      if (u0 > u1) {
        if (t2 > u0) {
          n2 = t2;
          hist[b + 2] = hist[b]!;
        } else n2 = u0;
      } else if (t2 > u1) {
        n2 = t2;
        hist[b + 2] = hist[b]!;
      } else {
        n2 = u1;
        hist[b + 2] = hist[b + 1]!;
      }
      score[b + 2] = n2 < WORST ? WORST : n2;
      const v0 = s1 + tp(i, 1, 1);
      const v1 = s0 + tp(i, 0, 1);
      let n1: number;
      if (v0 > v1) n1 = v0;
      else {
        n1 = v1;
        hist[b + 1] = hist[b]!;
      }
      score[b + 1] = n1 < WORST ? WORST : n1;
      const n0 = s0 + tp(i, 0, 0);
      score[b] = n0 < WORST ? WORST : n0;
    }
    // prune_hmms: no beam, only the word's frames
    const nf = f + 1;
    for (let i = lo; i < P && hmmFrame[i]! >= 0; i++) if (hmmFrame[i]! >= f && nf <= ef[i]!) hmmFrame[i] = nf;
    // phone_transition, in order: a phone entered here passes its exit score on at once
    for (let i = lo; i < P - 1 && hmmFrame[i]! >= 0; i++) {
      if (hmmFrame[i] !== nf) continue;
      if (nf < sf[i + 1]!) continue;
      const j = i + 1;
      if (hmmFrame[j]! < f || outScore[i]! > score[j * 3]!) {
        score[j * 3] = outScore[i]!;
        hist[j * 3] = outHist[i]!;
        hmmFrame[j] = nf;
      }
    }
    // record_transitions
    let top = lo;
    while (top + 1 < P && hmmFrame[top + 1]! >= 0) top++;
    tokBase[f] = lo;
    const n = (top - lo + 1) * 3;
    const ids = new Int32Array(n).fill(-1);
    const scs = new Float64Array(n).fill(-1);
    for (let i = lo; i <= top; i++) {
      if (hmmFrame[i]! < f) continue;
      for (let j = 0; j < 3; j++) {
        const si = i * 3 + j;
        ids[si - lo * 3] = hist[si]!;
        scs[si - lo * 3] = score[si]!;
        hist[si] = si;
      }
    }
    tokId.push(ids);
    tokScore.push(scs);
  }
  // state_align_search_finish: the backtrace from the last phone's exit
  const stStart = new Int32Array(S);
  const stDur = new Int32Array(S);
  const stScore = new Float64Array(S);
  for (let i = 0; i < P; i++)
    for (let j = 0; j < 3; j++) {
      const w = words[phoneWord[i]!]!;
      stStart[i * 3 + j] = w.start;
      stDur[i * 3 + j] = w.end - w.start + 1;
    }
  let lastId = outHist[P - 1]!;
  let lastScore = outScore[P - 1]!;
  if (lastId === -1) return null;
  let curId = lastId;
  let lastFrame = nFrames;
  for (let cf = nFrames - 2; cf >= 0; cf--) {
    const o = curId - tokBase[cf]! * 3;
    const ids = tokId[cf]!;
    if (o < 0 || o >= ids.length || ids[o] === -1) return null;
    const nextId = ids[o]!;
    const curScore = tokScore[cf]![o]!;
    curId = nextId;
    if (curId !== lastId) {
      stStart[lastId] = cf + 1;
      stDur[lastId] = lastFrame - (cf + 1);
      stScore[lastId] = lastScore - curScore;
      lastId = curId;
      lastScore = curScore;
      lastFrame = cf + 1;
    }
  }
  stStart[0] = 0;
  stDur[0] = lastFrame;
  // alignment_propagate: states to phones, phones to words
  const out: AlignedWord[] = words.map(() => ({ start: 0, duration: 0, score: 0, phones: [] }));
  for (let i = 0; i < P; i++) {
    const b = i * 3;
    const phone = {
      ci: phoneCi[i]!,
      start: stStart[b]!,
      duration: stDur[b]! + stDur[b + 1]! + stDur[b + 2]!,
      score: stScore[b]! + stScore[b + 1]! + stScore[b + 2]!,
    };
    const w = out[phoneWord[i]!]!;
    if (w.phones.length === 0) w.start = phone.start;
    w.duration += phone.duration;
    w.score += phone.score;
    w.phones.push(phone);
  }
  return out;
}
