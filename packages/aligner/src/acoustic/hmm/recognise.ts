// The independent recognition pass behind WER/CER. soundswallower has no n-gram search, and any grammar
// built from the transcript would find the transcript whatever was said. So the pass is a free phone loop
// (every model phone, any order, no language model): its phone string is compared with the transcript's
// expected phones. CER = phone error rate (edit distance / expected phones); WER = share of transcript
// words of which fewer than half the phones were recognised in the edit alignment. Both are high even for
// a correct transcript (phone recognition without a language model is hard), but a wrong transcript scores
// clearly worse: the figures discriminate, they are not comparable to an ASR system's WER.
import type { Recognition, Unit } from '../backend.ts';
import { editAlign } from '../../metrics/edit-distance.ts';
import type { HmmDecoder } from './decoder.ts';
import { wordLoop } from '../../align/grammar.ts';

export const PHONE_LOOP_METHOD =
  'free phone-loop recognition (no language model, not biased by the transcript) compared with the transcript pronunciation: cer = phone error rate, wer = share of words with fewer than half of their phones recognised';

const SKIP = new Set(['SIL', '+NSN+', '+SPN+', '+NOISE+', '+SPEECH+']);

export function recognisePhones(decoder: HmmDecoder, samples: Float32Array, units: Unit[]): Recognition {
  const phoneSet = [...decoder.phones].filter((p) => !SKIP.has(p));
  const names = phoneSet.map((p) => decoder.wordFor([p]));
  const text = decoder.recognise(samples, wordLoop(names));
  const hyp = text
    .split(/\s+/)
    .filter((w) => w.startsWith('P_'))
    .map((w) => w.slice(2));
  const ref: string[] = [];
  const owner: number[] = [];
  units.forEach((u, ui) => {
    for (const p of u.prons[0] ?? u.lattice?.flatMap((slot) => slot[0] ?? []) ?? []) {
      ref.push(p);
      owner.push(ui);
    }
  });
  if (ref.length === 0) return { wer: null, cer: null, method: 'no pronounceable words in the transcript' };
  // Collapse ARPAbet stress-free labels only; both sides use the model's own labels.
  const { distance, refHit } = editAlign(ref, hyp);
  const perUnit = new Map<number, { hit: number; n: number }>();
  owner.forEach((u, k) => {
    const e = perUnit.get(u) ?? { hit: 0, n: 0 };
    e.n++;
    if (refHit[k]) e.hit++;
    perUnit.set(u, e);
  });
  const words = new Map<number, boolean>();
  for (const [ui, e] of perUnit) {
    const w = units[ui]!.wordIndex;
    words.set(w, (words.get(w) ?? true) && e.hit * 2 >= e.n);
  }
  const wrongWords = [...words.values()].filter((ok) => !ok).length;
  // Per transcript word: phones of its pronunciation the free loop recognised, out of how many.
  const perWord = new Map<number, { hit: number; n: number }>();
  for (const [ui, e] of perUnit) {
    const w = units[ui]!.wordIndex;
    const acc = perWord.get(w) ?? { hit: 0, n: 0 };
    perWord.set(w, { hit: acc.hit + e.hit, n: acc.n + e.n });
  }
  return {
    wer: round(wrongWords / Math.max(1, words.size)),
    cer: round(Math.min(1, distance / ref.length)),
    method: PHONE_LOOP_METHOD,
    counts: { phoneErrors: distance, phones: ref.length, wrongWords, words: words.size },
    perWord,
  };
}

const round = (x: number): number => Math.round(x * 1000) / 1000;
