// Extra bench modes: long audio (timit-dev x10 in one file), hours (a multi-hour file for memory and time),
// robustness (deleted / inserted words, confidence), WER/CER discrimination (right vs wrong transcript).
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { align } from '../engine.ts';
import type { AlignOptions } from '../engine.ts';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { rawF32ToWav, SAMPLE_RATE } from '../audio/decode.ts';
import type { Precision } from '../acoustic/backend.ts';
import { arg, evalDir, joinRecordings, loadSet, score, seeded } from './common.ts';
import type { RefUtt } from './common.ts';

export interface ModeReport {
  title: string;
  lines: string[];
}

const fmt = (x: number | null | undefined, d = 1): string =>
  x === null || x === undefined ? '-' : x.toFixed(d);

function scoreOne(uid: string, words: RefUtt['words'], hyp: unknown): Record<string, number | null> {
  const refDir = mkdtempSync(join(tmpdir(), 'tz-ref-'));
  const hypDir = mkdtempSync(join(tmpdir(), 'tz-hyp-'));
  writeFileSync(join(refDir, `${uid}.json`), JSON.stringify({ words }));
  writeFileSync(join(hypDir, `${uid}.json`), JSON.stringify(hyp));
  return score(refDir, hypDir);
}

export async function longMode(precision: Precision, times = 10): Promise<ModeReport> {
  const { samples, text, words } = await joinRecordings(loadSet('timit-dev'), { readings: times });
  const t0 = performance.now();
  const res = await align(samples, text, { lang: 'en', precision, recognition: false, engine: 'hmm' });
  const wall = (performance.now() - t0) / 1000;
  const s = scoreOne('long', words, res);
  return {
    title: `Long audio: timit-dev concatenated ${times} times (${fmt(samples.length / SAMPLE_RATE / 60)} min, ${words.length} words), one file, full transcript`,
    lines: [
      `matched ${s.matched_words}/${s.ref_words}, mean ${fmt(s.mean_ms)} ms, median ${fmt(s.median_ms)} ms, <=50 ms ${fmt(s.pct_within_50ms)} %, start mean ${fmt(s.start_mean_ms)}, end mean ${fmt(s.end_mean_ms)}`,
      `wall ${fmt(wall)} s, RTF ${fmt(wall / (samples.length / SAMPLE_RATE), 4)}, peak RSS ${fmt(process.resourceUsage().maxRSS / 1024, 0)} MB`,
    ],
  };
}

export async function hoursMode(precision: Precision, hours: number): Promise<ModeReport> {
  // Eval audio (every set) repeated up to the target length; each copy is written out with ffmpeg so the
  // real decode path (streaming from the child process) is measured too.
  const sets = ['timit-dev', 'emu-ae', 'en-mfa-testdata'];
  const parts: { samples: Float32Array; text: string }[] = [];
  for (const set of sets) {
    const c = await joinRecordings(loadSet(set));
    parts.push({ samples: c.samples, text: c.text });
  }
  const unit = parts.reduce((a, p) => a + p.samples.length, 0);
  const reps = Math.ceil((hours * 3600 * SAMPLE_RATE) / unit);
  const dir = mkdtempSync(join(tmpdir(), 'tz-hours-'));
  const raw = join(dir, 'long.f32');
  const { openSync, writeSync, closeSync } = await import('node:fs');
  const fd = openSync(raw, 'w');
  const texts: string[] = [];
  for (let r = 0; r < reps; r++) {
    for (const p of parts) {
      writeSync(fd, Buffer.from(p.samples.buffer, p.samples.byteOffset, p.samples.byteLength));
      texts.push(p.text);
    }
  }
  closeSync(fd);
  const wav = join(dir, 'long.wav');
  rawF32ToWav(raw, wav);
  (await import('node:fs')).rmSync(raw);
  parts.length = 0;
  const rssBefore = process.memoryUsage().rss / 2 ** 20;
  const t0 = performance.now();
  const threads = Number(arg('threads', '1'));
  const cpu0 = process.cpuUsage();
  const res = await align(wav, texts.join('\n'), {
    lang: 'en',
    precision,
    recognition: false,
    engine: 'hmm',
    threads,
  });
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  (await import('node:fs')).rmSync(dir, { recursive: true });
  return {
    title: `Hours: ${fmt(res.audio.duration / 3600, 2)} h WAV (eval English audio repeated), ${res.words.length} words`,
    lines: [
      `aligned ${res.metrics.words_aligned}/${res.metrics.words_total} (${fmt((100 * res.metrics.words_aligned) / res.metrics.words_total, 1)} %), ${threads} thread(s): wall ${fmt(wall)} s, RTF ${fmt(wall / res.audio.duration, 4)}, CPU ${fmt(cpuSeconds)} s (${fmt(cpuSeconds / res.audio.duration, 4)} of the audio; worker threads included)`,
      `RSS before align ${fmt(rssBefore, 0)} MB, peak RSS ${fmt(process.resourceUsage().maxRSS / 1024, 0)} MB`,
    ],
  };
}

const FOREIGN = [
  'maison',
  'voiture',
  'fenêtre',
  'bibliothèque',
  'Straße',
  'Kirche',
  'mañana',
  'ventana',
  'zanahoria',
  'Schmetterling',
  'grenouille',
  'pomodoro',
];

export async function robustMode(precision: Precision): Promise<ModeReport> {
  const dir = evalDir();
  const utts = loadSet('timit-dev');
  const opts: AlignOptions = { lang: 'en', precision, recognition: false, engine: 'hmm' };
  const runs = {
    clean: mkdtempSync(join(tmpdir(), 'tz-clean-')),
    deleted: mkdtempSync(join(tmpdir(), 'tz-del-')),
    inserted: mkdtempSync(join(tmpdir(), 'tz-ins-')),
  };
  const rand = seeded(7);
  let inserted = 0;
  let insertedCaught = 0;
  const confOff: number[] = [];
  const confOn: number[] = [];
  for (const u of utts) {
    const clean = await align(u.audio, u.text, opts);
    writeFileSync(join(runs.clean, `${u.uid}.json`), JSON.stringify(clean));
    if (clean.words.length === u.words.length) {
      clean.words.forEach((w, i) => {
        if (w.start === null) return;
        const r = u.words[i]!;
        const err = Math.max(Math.abs(w.start - r.start), Math.abs(w.end! - r.end));
        (err > 0.1 ? confOff : confOn).push(w.confidence);
      });
    }
    const toks = u.text.split(/\s+/);
    const kept = toks.filter(() => rand() >= 0.1);
    const del = await align(u.audio, (kept.length ? kept : toks).join(' '), opts);
    writeFileSync(join(runs.deleted, `${u.uid}.json`), JSON.stringify(del));
    const withIns: string[] = [];
    const insIdx = new Set<number>();
    for (const t of toks) {
      if (rand() < 0.1) {
        insIdx.add(withIns.length);
        withIns.push(FOREIGN[Math.floor(rand() * FOREIGN.length)]!);
      }
      withIns.push(t);
    }
    const ins = await align(u.audio, withIns.join(' '), opts);
    for (const i of insIdx) {
      inserted++;
      const w = ins.words[i]!;
      if (w.status === 'not_found' || w.confidence < 0.3) insertedCaught++;
    }
    // The scorer sees the inserted words as insertions; only reference words are scored.
    writeFileSync(
      join(runs.inserted, `${u.uid}.json`),
      JSON.stringify({ words: ins.words.filter((_, i) => !insIdx.has(i)) }),
    );
  }
  const ref = join(dir, 'timit-dev');
  const sc = score(ref, runs.clean);
  const sd = score(ref, runs.deleted);
  const si = score(ref, runs.inserted);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
  mkdirSync(runs.clean, { recursive: true });
  return {
    title:
      'Robustness (timit-dev): 10 % of words deleted from the transcripts; separately 10 % foreign words inserted',
    lines: [
      `clean: mean ${fmt(sc.mean_ms)} ms over ${sc.matched_words} words`,
      `deleted: remaining words mean ${fmt(sd.mean_ms)} ms (${fmt((sd.mean_ms ?? 0) - (sc.mean_ms ?? 0))} ms vs clean), matched ${sd.matched_words}`,
      `inserted: original words mean ${fmt(si.mean_ms)} ms (${fmt((si.mean_ms ?? 0) - (sc.mean_ms ?? 0))} ms vs clean), matched ${si.matched_words}; inserted words not_found or confidence < 0.3: ${insertedCaught}/${inserted} (${fmt((100 * insertedCaught) / Math.max(1, inserted))} %)`,
      `confidence (clean): words off by > 100 ms mean ${fmt(mean(confOff), 3)} (n=${confOff.length}), other words mean ${fmt(mean(confOn), 3)} (n=${confOn.length})`,
    ],
  };
}

/** The threshold t with the largest share of `low` values <= t and `high` values > t. */
function bestSplit(low: number[], high: number[]): { thr: number; acc: number } {
  let best = { thr: 0, acc: 0 };
  for (const t of [...low, ...high]) {
    const acc =
      (low.filter((x) => x <= t).length + high.filter((x) => x > t).length) / (low.length + high.length);
    if (acc > best.acc) best = { thr: t, acc };
  }
  return best;
}

export async function werMode(precision: Precision): Promise<ModeReport> {
  const utts = loadSet('timit-dev');
  // score: coverage x mean confidence (the mean word confidence, words not found counting 0), the
  // platform's "accuracy" figure for an alignment
  const right: { wer: number; cer: number; score: number }[] = [];
  const wrong: { wer: number; cer: number; score: number }[] = [];
  const alignmentScore = (m: AlignmentResult['metrics']) => m.coverage * m.mean_confidence;
  for (let i = 0; i < utts.length; i++) {
    const u = utts[i]!;
    const other = utts[(i + 7) % utts.length]!;
    const r = await align(u.audio, u.text, { lang: 'en', precision, garbage: false, engine: 'hmm' });
    const w = await align(u.audio, other.text, { lang: 'en', precision, garbage: false, engine: 'hmm' });
    right.push({ wer: r.metrics.wer ?? NaN, cer: r.metrics.cer ?? NaN, score: alignmentScore(r.metrics) });
    wrong.push({ wer: w.metrics.wer ?? NaN, cer: w.metrics.cer ?? NaN, score: alignmentScore(w.metrics) });
  }
  const dist = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `mean ${fmt(s.reduce((a, b) => a + b, 0) / s.length, 3)}, median ${fmt(s[Math.floor(s.length / 2)], 3)}, min ${fmt(s[0], 3)}, max ${fmt(s[s.length - 1], 3)}`;
  };
  // Best single thresholds separating right from wrong transcripts: low CER, high score.
  const best = bestSplit(
    right.map((x) => x.cer),
    wrong.map((x) => x.cer),
  );
  const negated = bestSplit(
    right.map((x) => -x.score),
    wrong.map((x) => -x.score),
  );
  const bestScore = { thr: -negated.thr, acc: negated.acc };
  return {
    title: `WER/CER discrimination (timit-dev, ${utts.length} utterances): true transcript vs another utterance's transcript`,
    lines: [
      `true transcript: WER ${dist(right.map((x) => x.wer))}; CER ${dist(right.map((x) => x.cer))}`,
      `wrong transcript: WER ${dist(wrong.map((x) => x.wer))}; CER ${dist(wrong.map((x) => x.cer))}`,
      `one CER threshold (${fmt(best.thr, 3)}) separates ${fmt(best.acc * 100)} % of the ${right.length * 2} cases`,
      `coverage x mean confidence: true transcript ${dist(right.map((x) => x.score))}; wrong transcript ${dist(wrong.map((x) => x.score))}; one threshold (${fmt(bestScore.thr, 3)}) separates ${fmt(bestScore.acc * 100)} %`,
    ],
  };
}
