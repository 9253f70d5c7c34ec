// `npm run bench -- --mode quality`: every utterance of the dev sets aligned with its own transcript and
// with another utterance's (swapped), with its own transcript on its audio followed or preceded by
// another utterance's (extra, extra-before: speech the transcript leaves out), plus a pure tone and
// digital silence made with ffmpeg, all with the
// platform's defaults (standard precision, garbage path, recognition). Reports the verdict confusion
// matrix, WER/CER for correct and wrong transcripts, and the calibration of word confidence (reliability
// table, ECE) against the reference: a word is a hit when both its edges lie within 50 ms.
// --dump FILE writes every case and word (raw evidence included) for bench/calibrate.ts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AlignmentResult, Verdict } from '@tazamun/contracts/alignment-result';
import { align } from '../engine.ts';
import type { AlignOptions } from '../engine.ts';
import type { CalibrationClass, WordEvidence } from '../metrics/calibration.ts';
import { decodeAudio16, ffmpegPath } from '../audio/decode.ts';
import type { Pcm } from '../audio/pcm.ts';
import { measureAudio } from '../audio/measure.ts';
import { analyseSpeech, type Untranscribed, untranscribedSpeech } from '../metrics/speech.ts';
import { isIpa, loadSet } from './common.ts';
import type { RefUtt } from './common.ts';

export const QUALITY_SETS = [
  'timit-dev',
  'fr-librivox-mfa',
  'ar-synthetic',
  'ar-voxangeles-aeb',
  // generated (bench/synth.ts): enough words to fit and judge the Arabic and IPA calibration
  'synth-ar',
  'synth-ar-plain',
  'synth-ipa',
];

export type Expected = 'good' | 'partial' | 'mismatch' | 'no_speech';

export interface CaseRecord {
  set: string;
  uid: string;
  kind: 'correct' | 'swapped' | 'extra' | 'extra-before' | 'tone' | 'silence';
  expected: Expected;
  verdict: Verdict;
  reasons: string[];
  wer: number | null;
  cer: number | null;
  phoneErrorRate: number | null;
  coverage: number;
  meanConfidence: number;
  speechSeconds: number;
  untranscribed: number;
  /** the part of it between the first and the last placed word (absent in dumps before 2026-12-06) */
  untranscribedInner?: number;
  /** its longest stretch (absent in dumps before 2026-12-07) */
  untranscribedLongest?: number;
  duration: number;
  clippingRatio: number;
  steady: boolean;
  language: { chosen: string; detected: string | null; disagrees: boolean };
  words: WordRecord[];
}

export interface WordRecord {
  word: string;
  start: number | null;
  end: number | null;
  cls: CalibrationClass | null;
  evidence: WordEvidence | null;
  confidence: number;
  status: 'aligned' | 'not_found';
  /** both edges within 50 ms of the reference (null: no reference word matched, or a wrong transcript) */
  hit: boolean | null;
  /** signed errors (s) of its start and of its end against the matched reference word */
  err?: [number, number] | null;
}

const norm = (w: string): string =>
  w
    .normalize('NFC')
    .toLowerCase()
    .replace(/\u0671/g, '\u0627')
    .replace(/[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED\u0640]/g, '')
    .replace(/[\p{P}\p{S}\p{Z}\p{C}]/gu, '');

/** Reference word for each result word, by a longest-common-subsequence match of normalised strings. */
export function matchWords(hyp: string[], ref: string[]): (number | null)[] {
  const n = hyp.length;
  const m = ref.length;
  if (n === 1 && m === 1) return [0]; // one IPA word: matched whatever its spelling (as score.py does)
  const L = Array.from({ length: n + 1 }, () => new Int32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      L[i]![j] = hyp[i] === ref[j] ? L[i + 1]![j + 1]! + 1 : Math.max(L[i + 1]![j]!, L[i]![j + 1]!);
  const out: (number | null)[] = new Array<number | null>(n).fill(null);
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (hyp[i] === ref[j]) {
      out[i] = j;
      i++;
      j++;
    } else if (L[i + 1]![j]! >= L[i]![j + 1]!) i++;
    else j++;
  }
  return out;
}

function ffmpegAudio(dir: string, name: string, source: string, seconds: number): string {
  const out = join(dir, `${name}.wav`);
  const r = spawnSync(ffmpegPath(), [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    source,
    // -t rather than the sources' own duration option, which the npm ffmpeg build's anullsrc lacks
    '-t',
    String(seconds),
    '-ar',
    '16000',
    '-ac',
    '1',
    '-y',
    out,
  ]);
  if (r.status !== 0) throw new Error(`ffmpeg: ${r.stderr.toString()}`);
  return out;
}

/** A pure 440 Hz tone and digital silence, 3 s each (ffmpeg's lavfi sources). */
export function makeNonSpeech(dir: string): { tone: string; silence: string } {
  return {
    tone: ffmpegAudio(dir, 'tone', 'sine=frequency=440:sample_rate=16000', 3),
    silence: ffmpegAudio(dir, 'silence', 'anullsrc=r=16000:cl=mono', 3),
  };
}

const EXPECTED: Record<CaseRecord['kind'], Expected> = {
  correct: 'good',
  swapped: 'mismatch',
  // the transcript holds only one of two utterances, every word of it right: speech it leaves out
  extra: 'partial',
  'extra-before': 'partial',
  tone: 'no_speech',
  silence: 'no_speech',
};

/** One utterance's audio, 0.4 s of faint noise, then another's; `second`: where that one starts (s). */
async function joined(a: string, b: string): Promise<{ samples: Int16Array; second: number }> {
  const x = (await decodeAudio16(a)).samples;
  const y = (await decodeAudio16(b)).samples;
  const out = new Int16Array(x.length + GAP + y.length);
  out.set(x);
  for (let i = 0; i < GAP; i++) out[x.length + i] = (i % 3) - 1;
  out.set(y, x.length + GAP);
  return { samples: out, second: (x.length + GAP) / 16000 };
}
const GAP = 6400;

/** The result's untranscribed speech measured as the engine does (the part between its words, the longest stretch). */
async function untranscribedOf(audio: string | Pcm, res: AlignmentResult): Promise<Untranscribed> {
  const samples = typeof audio === 'string' ? (await decodeAudio16(audio)).samples : audio;
  const stats = measureAudio(samples);
  return untranscribedSpeech(analyseSpeech(stats.frameDb, stats.frameTiltDb), res.words);
}

function optionsFor(u: RefUtt): AlignOptions {
  return { lang: u.lang, inputKind: isIpa(u) ? 'ipa' : 'orthography', engine: 'hmm' };
}

async function runCase(
  set: string,
  u: RefUtt,
  audio: string | Pcm,
  text: string,
  kind: CaseRecord['kind'],
  calibration: 'fitted' | 'none',
  /** where the utterance starts in `audio` (s): its reference times are moved by this much */
  offset = 0,
): Promise<CaseRecord> {
  let evidence: Parameters<NonNullable<AlignOptions['onWordEvidence']>>[0] = [];
  const res: AlignmentResult = await align(audio, text, {
    ...optionsFor(u),
    calibration,
    onWordEvidence: (e) => (evidence = e),
  });
  const byWord = new Map(evidence.map((e) => [e.wordIndex, e]));
  // an extra case's transcript is the utterance's own, over that utterance's audio
  const own = kind === 'correct' || kind === 'extra' || kind === 'extra-before';
  const refMatch = own
    ? matchWords(
        res.words.map((w) => norm(w.word)),
        u.words.map((w) => norm(w.w)),
      )
    : null;
  const words: WordRecord[] = res.words.map((w, i) => {
    const ev = byWord.get(w.index);
    let hit: boolean | null = null;
    let err: [number, number] | null = null;
    const j = refMatch?.[i];
    if (j !== null && j !== undefined && w.start !== null && w.end !== null) {
      const r = { start: u.words[j]!.start + offset, end: u.words[j]!.end + offset };
      hit = Math.abs(w.start - r.start) <= 0.05 && Math.abs(w.end - r.end) <= 0.05;
      err = [Math.round((w.start - r.start) * 1000) / 1000, Math.round((w.end - r.end) * 1000) / 1000];
    } else if (refMatch && j !== null && j !== undefined) hit = false;
    if (!own) hit = w.status === 'aligned' ? false : null;
    return {
      word: w.word,
      start: w.start,
      end: w.end,
      cls: ev?.cls ?? null,
      evidence: ev
        ? {
            p: ev.p,
            phones: ev.phones,
            seconds: ev.seconds,
            legacy: ev.legacy,
            loopHit: ev.loopHit,
            loopN: ev.loopN,
            gop: ev.gop ?? null,
            spread: ev.spread ?? null,
            atPause: ev.atPause ?? false,
            phoneGop: ev.phoneGop ?? null,
            worstGop: ev.worstGop ?? null,
            minFrames: ev.minFrames ?? null,
            spreads: ev.spreads ?? null,
            edgePhones: ev.edgePhones ?? null,
            open: ev.open ?? null,
            outerPhones: ev.outerPhones ?? null,
            gaps: ev.gaps ?? null,
            gapSpeech: ev.gapSpeech ?? null,
          }
        : null,
      confidence: w.confidence,
      status: w.status,
      hit,
      err,
    };
  });
  const untranscribed = await untranscribedOf(audio, res);
  return {
    set,
    uid: u.uid,
    kind,
    expected: EXPECTED[kind],
    verdict: res.quality.verdict,
    reasons: res.quality.reasons.map((r) => r.code),
    wer: res.metrics.wer,
    cer: res.metrics.cer,
    phoneErrorRate: res.metrics.phone_error_rate,
    coverage: res.metrics.coverage,
    meanConfidence: res.metrics.mean_confidence,
    speechSeconds: res.metrics.speech_seconds,
    untranscribed: res.metrics.untranscribed_speech_seconds,
    untranscribedInner: untranscribed.innerSeconds,
    untranscribedLongest: untranscribed.longestSeconds,
    duration: res.audio.duration,
    clippingRatio: res.audio.clipping_ratio,
    steady: res.quality.reasons.some((r) => r.code === 'no_speech' && r.message.includes('steady')),
    language: {
      chosen: res.language,
      detected: res.detected_language,
      disagrees: res.quality.reasons.some((r) => r.code === 'language_mismatch'),
    },
    words,
  };
}

export async function collectQuality(
  sets: string[],
  opts: { limit?: number; calibration: 'fitted' | 'none'; log?: (s: string) => void },
): Promise<CaseRecord[]> {
  const tmp = mkdtempSync(join(tmpdir(), 'tz-quality-'));
  const nonSpeech = makeNonSpeech(tmp);
  const cases: CaseRecord[] = [];
  try {
    for (const set of sets) {
      const utts = loadSet(set).slice(0, opts.limit ?? Infinity);
      for (let i = 0; i < utts.length; i++) {
        const u = utts[i]!;
        // Another utterance's transcript, far enough in the list not to be the same speaker's sentence,
        // and not the same text (every TIMIT speaker reads the two SA sentences).
        let k = i + Math.max(1, Math.floor(utts.length / 2));
        while (utts[k % utts.length]!.text === u.text && k < i + utts.length) k++;
        const other = utts[k % utts.length]!;
        cases.push(await runCase(set, u, u.audio, u.text, 'correct', opts.calibration));
        // (not for the generated sets, which are there for the calibration of correct transcripts)
        if (other.uid !== u.uid && !set.startsWith('synth-')) {
          cases.push(await runCase(set, u, u.audio, other.text, 'swapped', opts.calibration));
          const after = await joined(u.audio, other.audio);
          cases.push(await runCase(set, u, after.samples, u.text, 'extra', opts.calibration));
          const before = await joined(other.audio, u.audio);
          cases.push(
            await runCase(set, u, before.samples, u.text, 'extra-before', opts.calibration, before.second),
          );
        }
        // The tone and the silence with this set's first three transcripts.
        if (i < 3) {
          cases.push(await runCase(set, u, nonSpeech.tone, u.text, 'tone', opts.calibration));
          cases.push(await runCase(set, u, nonSpeech.silence, u.text, 'silence', opts.calibration));
        }
        opts.log?.(`${set} ${i + 1}/${utts.length}`);
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return cases;
}

export function writeDump(file: string, cases: CaseRecord[]): void {
  writeFileSync(file, JSON.stringify(cases));
}
