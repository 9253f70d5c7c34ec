// The verdict on a result and the transcript error estimate (WER/CER) it rests on. Both come from what
// the engine knows: words it could not place, words whose audio does not fit them (calibrated confidence),
// speech that no word took (audio analysis), and the audio itself (speech or not). Thresholds were
// measured on the dev sets with correct and swapped transcripts (docs/benchmarks.md, bench --mode quality).
import type { Quality, QualityReason, Verdict, WordTiming } from '@tazamun/contracts/alignment-result';
import type { SpeechAnalysis } from './speech.ts';

export const QUALITY = {
  /**
   * Without fit scores from the engine (mms): a placed word whose confidence is below this does not fit
   * its audio. The hmm engine decides per word with metrics/calibration.ts wordFits instead.
   */
  wordFitMin: 0.3,
  /** less speech than this (seconds) in the whole file: no speech */
  noSpeechSeconds: 0.2,
  /**
   * Estimated error rate from which the transcript does not fit the speech (its own words that do not
   * fit, and the words of the speech left out between them, over its words), and estimated WER from
   * which the result is partial. Measured (bench --mode quality): correct transcripts 136/151 good and
   * 4/151 mismatch, another recording's transcript 98/135 mismatch (timit-dev 64/64) (docs/benchmarks.md).
   */
  mismatchWer: 0.4,
  partialWer: 0.25,
  /** untranscribed speech (seconds, and share of the speech) from which the result is partial */
  untranscribedSeconds: 2,
  untranscribedShare: 0.2,
  /**
   * ... or this much of it in one place (between two neighbouring words, before the first or after the
   * last), whatever its share: on a long recording a fifth of the speech is minutes (an introduction of
   * 23 s before 233 s of text was 10 % of the speech, and the result was good without a word about it).
   * No correct transcript of the quality bench leaves more than 0.3 s in one place.
   */
  untranscribedRun: 5,
  /** letters per second of audio above which no one could say the text in the audio */
  maxLettersPerSecond: 35,
  /** seconds of speech per transcript word above which most of the speech is not in the text */
  maxSpeechPerWord: 4,
  /** and only with at least this much speech */
  minSpeechForRate: 10,
  /** seconds per word used to turn untranscribed speech into words when no word was placed */
  defaultWordSeconds: 0.35,
  /**
   * Share of the placed phones that the model had no phone of its own for (approximated) from which the
   * result carries a note saying so. Measured on 8 recordings of each dev set: English and French on
   * their own models 0 %, vowelled Arabic on the English model 42 %, Tunisian words (VoxAngeles) 21 %.
   */
  approximatedShare: 0.3,
};

export interface QualityInput {
  words: WordTiming[];
  /** per word: placed and its audio fits it (hmm engine); absent: confidence >= wordFitMin decides */
  fits?: boolean[];
  speech: SpeechAnalysis;
  untranscribedSeconds: number;
  /** the part of it between the first and the last placed word (metrics/speech.ts) */
  untranscribedInnerSeconds: number;
  /** the most of it in one place (metrics/speech.ts; absent: not measured) */
  untranscribedLongestSeconds?: number;
  duration: number;
  clippingRatio: number;
  language: { chosen: string; detected: string | null; disagrees: boolean };
}

export interface QualityOutput {
  quality: Quality;
  wer: number | null;
  cer: number | null;
  method: string;
  /** per word: counted as an error in the estimate */
  wrong: boolean[];
}

export const WER_METHOD =
  'estimate: (words not found + placed words whose audio does not fit them + words of untranscribed speech) / (transcript words + words of untranscribed speech); cer counts the letters of the same words (docs/formats.md)';

const letters = (s: string): number => (s.match(/\p{L}|\p{N}/gu) ?? []).length;
const r3 = (x: number): number => Math.round(x * 1000) / 1000;

export function assessQuality(input: QualityInput): QualityOutput {
  const { words, speech } = input;
  const reasons: QualityReason[] = [];
  const wrong = words.map((w, i) =>
    w.status === 'not_found' ? true : input.fits ? !input.fits[i] : w.confidence < QUALITY.wordFitMin,
  );
  const n = words.length;
  const placed = words.filter((w) => w.status === 'aligned' && w.start !== null && w.end !== null);
  const wordSeconds = placed.length
    ? Math.min(0.6, Math.max(0.2, placed.reduce((a, w) => a + (w.end! - w.start!), 0) / placed.length))
    : QUALITY.defaultWordSeconds;
  const inserted = input.untranscribedSeconds / wordSeconds;
  const totalLetters = words.reduce((a, w) => a + letters(w.word), 0);
  const wrongLetters = words.reduce((a, w, i) => a + (wrong[i] ? letters(w.word) : 0), 0);
  const lettersPerWord = n ? totalLetters / n : 5;
  const errors = wrong.filter(Boolean).length;
  // over the words said: the transcript's, and those of the speech it left out
  const wer = n ? r3(Math.min(1, (errors + inserted) / (n + inserted))) : null;
  const insertedLetters = inserted * lettersPerWord;
  const cer = totalLetters
    ? r3(Math.min(1, (wrongLetters + insertedLetters) / (totalLetters + insertedLetters)))
    : null;
  // A wrong transcript is told from an incomplete one by its own words, whether they fit the speech,
  // and by the speech left out between them; speech before its first word or after its last is a
  // recording that goes on beyond its transcript (partial), not a transcript of something else.
  const misfit = n > 0 && (errors + input.untranscribedInnerSeconds / wordSeconds) / n >= QUALITY.mismatchWer;

  const noSpeech = speech.speechSeconds < QUALITY.noSpeechSeconds;
  if (noSpeech)
    reasons.push({
      code: 'no_speech',
      message: speech.steady
        ? 'the audio holds a steady sound (a tone or a hum), not speech'
        : 'no speech was found in the audio (silence or near silence)',
      value: speech.speechSeconds,
    });
  const notFound = words.filter((w) => w.status === 'not_found').length;
  if (!noSpeech && misfit && wer !== null)
    reasons.push({
      code: 'transcript_mismatch',
      message: `the transcript does not fit the speech (estimated WER ${wer.toFixed(2)})`,
      value: wer,
    });
  if (!noSpeech && notFound > 0)
    reasons.push({
      code: 'words_not_found',
      message: `${notFound} of ${n} ${n === 1 ? 'word' : 'words'} ${notFound === 1 ? 'was' : 'were'} not found in the audio`,
      value: notFound,
      words: words.filter((w) => w.status === 'not_found').map((w) => w.index),
    });
  const poorlyFit = words.filter((w, i) => wrong[i] && w.status === 'aligned');
  const lowFit = poorlyFit.length;
  if (!noSpeech && lowFit > 0)
    reasons.push({
      code: 'low_confidence',
      message: `${lowFit} placed ${lowFit === 1 ? 'word fits its' : 'words fit their'} audio poorly`,
      value: lowFit,
      words: poorlyFit.map((w) => w.index),
    });
  const untranscribed =
    input.untranscribedSeconds >= QUALITY.untranscribedSeconds &&
    (input.untranscribedSeconds >= QUALITY.untranscribedShare * speech.speechSeconds ||
      (input.untranscribedLongestSeconds ?? 0) >= QUALITY.untranscribedRun);
  if (!noSpeech && untranscribed)
    reasons.push({
      code: 'untranscribed_speech',
      message: `${input.untranscribedSeconds.toFixed(1)} s of speech are not covered by any word of the transcript`,
      value: input.untranscribedSeconds,
    });
  if (input.language.disagrees)
    reasons.push({
      code: 'language_mismatch',
      message: `the transcript looks like ${input.language.detected}, not ${input.language.chosen}`,
    });
  const lps = input.duration > 0 ? totalLetters / input.duration : 0;
  const tooLong = lps > QUALITY.maxLettersPerSecond;
  if (tooLong)
    reasons.push({
      code: 'text_too_long_for_audio',
      message: `the text has ${lps.toFixed(0)} letters per second of audio: more than anyone can say`,
      value: r3(lps),
    });
  const tooShort =
    speech.speechSeconds >= QUALITY.minSpeechForRate &&
    n > 0 &&
    speech.speechSeconds / n > QUALITY.maxSpeechPerWord;
  if (tooShort)
    reasons.push({
      code: 'text_too_short_for_audio',
      message: `${(speech.speechSeconds / n).toFixed(1)} s of speech per transcript word: most of the speech is not in the text`,
      value: r3(speech.speechSeconds / n),
    });
  // a note, not a fault: the phone tier holds mostly phones the model stood in for
  const phones = placed.flatMap((w) => w.phones ?? []);
  const approximated = phones.filter((p) => p.approximated).length;
  if (!noSpeech && phones.length > 0 && approximated / phones.length > QUALITY.approximatedShare)
    reasons.push({
      code: 'phones_approximated',
      message: `${Math.round((100 * approximated) / phones.length)} % of the phones have no phone of their own in the acoustic model and were placed with the nearest one it has (marked approximated in the phone tier)`,
      value: Math.round((1000 * approximated) / phones.length) / 10,
    });
  if (input.clippingRatio > 0.001)
    reasons.push({
      code: 'audio_clipping',
      message: `the audio clips (${(input.clippingRatio * 100).toFixed(2)} % of samples)`,
      value: input.clippingRatio,
    });

  let verdict: Verdict;
  if (noSpeech) verdict = 'no_speech';
  else if (misfit || tooLong) verdict = 'mismatch';
  else if (
    (wer !== null && wer >= QUALITY.partialWer) ||
    untranscribed ||
    tooShort ||
    input.language.disagrees
  )
    verdict = 'partial';
  else verdict = 'good';
  return { quality: { verdict, reasons }, wer, cer, method: WER_METHOD, wrong };
}
