// The free phone-loop recognition pass: every model phone, any order, no language model, so nothing in it
// is biased by the transcript. Its phone string is compared with the transcript's expected phones and
// kept in the result as a diagnostic (`phone_error_rate`, and its per-word hits in the calibration dump).
// The WER/CER the user sees are the estimate built from the alignment's own evidence
// (metrics/quality.ts); phone recognition without a language model is too hard on correct transcripts
// (0.64 phone error rate on timit-dev) to stand for a word error rate.
import type { Recognition, Unit } from '../backend.ts';
import { scoreRecognition } from '../../metrics/recognition.ts';
import type { HmmSearch } from './decoder.ts';
import { wordLoop } from '../../align/grammar.ts';

export const PHONE_LOOP_METHOD =
  'free phone-loop recognition (no language model, not biased by the transcript) compared with the transcript pronunciation: cer = phone error rate, wer = share of words with fewer than half of their phones recognised';

const SKIP = new Set(['SIL', '+NSN+', '+SPN+', '+NOISE+', '+SPEECH+']);

export async function recognisePhones(
  decoder: HmmSearch,
  samples: Float32Array,
  units: Unit[],
): Promise<Recognition> {
  let hyp: string[];
  if (decoder.phoneLoop) {
    // the same loop as goodness of pronunciation, over the window's shared scores
    hyp = (await decoder.phoneLoop(samples)).phones;
  } else {
    const phoneSet = [...decoder.phones].filter((p) => !SKIP.has(p));
    const names = phoneSet.map((p) => decoder.wordFor([p], 'R'));
    const text = await decoder.recognise(samples, wordLoop(names));
    hyp = text
      .split(/\s+/)
      .filter((w) => w.startsWith('R_'))
      .map((w) => w.slice(2));
  }
  // Both sides use the model's own labels.
  return scoreRecognition(units, hyp, PHONE_LOOP_METHOD);
}
