// The independent recognition pass behind WER/CER. soundswallower has no n-gram search, and any grammar
// built from the transcript would find the transcript whatever was said. So the pass is a free phone loop
// (every model phone, any order, no language model): its phone string is compared with the transcript's
// expected phones. CER = phone error rate (edit distance / expected phones); WER = share of transcript
// words of which fewer than half the phones were recognised in the edit alignment. Both are high even for
// a correct transcript (phone recognition without a language model is hard), but a wrong transcript scores
// clearly worse: the figures discriminate, they are not comparable to an ASR system's WER.
import type { Recognition, Unit } from '../backend.ts';
import { scoreRecognition } from '../../metrics/recognition.ts';
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
  // Both sides use the model's own labels.
  return scoreRecognition(units, hyp, PHONE_LOOP_METHOD);
}
