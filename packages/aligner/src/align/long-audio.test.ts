// The two-pass long-audio path, on real speech (TIMIT sample sentences from the eval set, joined) with
// windows scaled down so a few sentences go through several first-pass windows, as a long recording does.
// Fails loudly when the eval set is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { decodeAudio, SAMPLE_RATE } from '../audio/decode.ts';
import { HmmBackend, loadDecoder } from '../acoustic/hmm/backend.ts';
import { normalizeTranscript } from '../text/normalize.ts';
import { arabicPronunciationLattice, espeakIpa } from '../text/g2p.ts';
import type { Unit, UnitSpan } from '../acoustic/backend.ts';
import {
  alignLong,
  commitPoint,
  fixedPieces,
  loopFits,
  planPieces,
  ranAhead,
  segmentPass,
  StretchSearches,
  textStart,
} from './long-audio.ts';
import { PIECES_HELD, WindowPool } from './window-pool.ts';
import { PcmFile, Samples, toS16 } from '../audio/pcm.ts';
import { align, piecePool } from '../engine.ts';
import { evalDir } from '@tazamun/aligner/testing/eval-dir';
import { onThreads } from '@tazamun/aligner/testing/thread-jobs';
import { englishUnits } from '@tazamun/aligner/testing/english-units';

const EVAL = join(evalDir(), 'timit-dev');
const UTTS = ['dr1-fvmh0_sa1', 'dr1-fvmh0_sa2', 'dr1-fvmh0_si1466', 'dr1-fvmh0_si2096'];

const span = (unit: number, start: number, end: number): UnitSpan => ({
  unit,
  start,
  end,
  confidence: 1,
  phones: [],
});

/** `n` one-phone words, w0 to w(n-1). */
const wordUnits = (n: number): Unit[] =>
  [...Array(n).keys()].map((i) => ({ tokenIndex: i, wordIndex: i, text: `w${i}`, prons: [['AH']] }));

test('pieces are cut in the widest pause between 15 and 40 s, and cover every unit and second', () => {
  // one word a second, 0.2 s pauses, except a 1 s pause after the word ending at 22.8 s
  const first: UnitSpan[] = [];
  let t = 0;
  for (let u = 0; u < 100; u++) {
    if (u === 5) u++; // unit 5 was not placed by the first pass
    first.push(span(u, t, t + 0.8));
    t += u === 21 ? 1.8 : 1;
  }
  const pieces = planPieces(first, 100, t);
  assert.ok(pieces.length >= 3);
  assert.equal(pieces[0]!.t0, 0);
  assert.equal(pieces[pieces.length - 1]!.t1, t);
  assert.equal(pieces[0]!.u0, 0);
  assert.equal(pieces[pieces.length - 1]!.u1, 100);
  for (let i = 1; i < pieces.length; i++) {
    assert.equal(pieces[i]!.u0, pieces[i - 1]!.u1, 'units follow on');
    assert.equal(pieces[i]!.t0, pieces[i - 1]!.t1, 'audio follows on');
  }
  // the first cut is in the long pause, in its middle
  const w21 = first.find((s) => s.unit === 21)!;
  const w22 = first.find((s) => s.unit === 22)!;
  assert.equal(pieces[0]!.t1, (w21.end + w22.start) / 2);
  assert.ok(pieces[0]!.u0 <= 5 && pieces[0]!.u1 > 5, 'the unplaced unit stays with its neighbours');
  for (const p of pieces.slice(0, -1)) assert.ok(p.t1 - p.t0 >= 15 && p.t1 - p.t0 <= 40);
});

test('a first pass under way fixes the pieces the whole pass cuts the same way, never the one that runs to the end', () => {
  // one word a second over 300 s, a pause of 1 s after every tenth
  const whole: UnitSpan[] = [];
  let t = 0;
  for (let u = 0; u < 300; u++) {
    whole.push(span(u, t, t + 0.8));
    t += u % 10 === 9 ? 1.8 : 1;
  }
  const total = t;
  const plan = planPieces(whole, 300, total);
  const key = (p: { u0: number; u1: number; t0: number; t1: number }) => `${p.u0}:${p.u1}:${p.t0}:${p.t1}`;
  for (const upTo of [2, 50, 120, 299]) {
    const partial = whole.slice(0, upTo);
    const fixed = fixedPieces(partial, 300, total);
    for (const p of fixed) {
      assert.ok(
        plan.some((q) => key(q) === key(p)),
        `a piece of the whole plan (${upTo} words committed)`,
      );
      assert.ok(p.t1 < total, 'not the piece that runs to the end');
    }
    // the pieces whose cut is settled are all there, in order from the first
    assert.deepEqual(fixed.map(key), plan.slice(0, fixed.length).map(key));
    if (upTo >= 120) assert.ok(fixed.length >= 2);
  }
  // a first pass that held one word over a minute (a stalled path): what comes after its start is not fixed
  const stalled = [...whole.slice(0, 100), span(100, whole[100]!.start, whole[100]!.start + 65)];
  const fixed = fixedPieces(stalled, 300, total);
  assert.ok(
    fixed.every((p) => p.t1 <= whole[100]!.start && p.u1 <= 100),
    'nothing past the stalled word',
  );
  assert.deepEqual(fixedPieces(whole.slice(0, 1), 300, total), []);
});

/** The UTTS sentences joined into one recording, their hand-labelled words and the English back-end. */
async function joined() {
  const refs = UTTS.map((u) => {
    assert.ok(existsSync(join(EVAL, `${u}.wav`)), `eval set missing: ${EVAL}`);
    return JSON.parse(readFileSync(join(EVAL, `${u}.json`), 'utf8')) as {
      text: string;
      words: { w: string; start: number; end: number }[];
    };
  });
  const parts = await Promise.all(UTTS.map(async (u) => (await decodeAudio(join(EVAL, `${u}.wav`))).samples));
  const samples = new Float32Array(parts.reduce((a, p) => a + p.length, 0));
  const words: { start: number; end: number }[] = [];
  const starts: number[] = [];
  let at = 0;
  parts.forEach((p, i) => {
    samples.set(p, at);
    starts.push(at / SAMPLE_RATE);
    for (const w of refs[i]!.words)
      words.push({ start: w.start + at / SAMPLE_RATE, end: w.end + at / SAMPLE_RATE });
    at += p.length;
  });
  const backend = new HmmBackend(await loadDecoder('en'), {
    espeakIpa,
    arabicLattice: arabicPronunciationLattice,
  });
  const norm = normalizeTranscript(refs.map((r) => r.text).join('\n'), 'en', {
    normalize: true,
    numbersToWords: true,
    removeFillers: false,
    inputKind: 'orthography',
    hasWord: (w) => backend.hasWord(w, 'eng'),
  });
  const { units } = await backend.pronounce(norm.tokens, 'en', 'orthography');
  assert.equal(units.length, words.length);
  const perUtt = refs.map((r) => r.words.length);
  return { samples, words, starts, perUtt, backend, units };
}

/** Sentence i of joined() as a stretch search: its units over its own audio. */
function sentenceStretch({ samples, starts, perUtt }: Awaited<ReturnType<typeof joined>>, i: number) {
  const u0 = perUtt.slice(0, i).reduce((a, n) => a + n, 0);
  return { u0, u1: u0 + perUtt[i]!, from: starts[i]!, to: starts[i + 1] ?? samples.length / SAMPLE_RATE };
}

test('stretch searches closed: those asked and not started are dropped, and this thread runs no more of them', async () => {
  // align/reseat.ts asks ahead for the searches its runs will want and closes the searches when it is
  // done; a search queued for a run that a moved run replaced must not run on beside the engine's later
  // steps (on the same back-end).
  const data = await joined();
  const { samples, perUtt, backend, units } = data;
  const searches = new StretchSearches(backend, new Samples(samples, true), units, {
    precision: 'standard',
    garbage: true,
  });
  const stretch = (i: number) => ({ ...sentenceStretch(data, i), leadingLoop: true as const });
  const first = searches.get(stretch(0));
  const later = [searches.offer(stretch(1)), searches.offer(stretch(2))];
  const placed = await first;
  assert.ok(placed.length >= perUtt[0]! - 1, `${placed.length} of ${perUtt[0]} placed`);
  searches.close();
  const outcomes = await Promise.allSettled(later);
  // the first of them may have started while `first` was read; the last had not
  const last = outcomes[1]!;
  assert.equal(last.status, 'rejected');
  assert.match(String((last as PromiseRejectedResult).reason), /no longer needed/);
});

test('a search a thread holds, taken back by another step’s searches, is run with the settings it was given with', async () => {
  // The repairs' searches go on taking back what the threads hold after the repairs are done; on the 3-hour
  // file they took back the searches for words left out (align/squeezed.ts, without the garbage path) and
  // ran them with the garbage path, so that two threads placed 29-36 fewer words than one, by timing.
  const data = await joined();
  const { samples, backend, units } = data;
  const recording = new Samples(samples, true);
  const stretches = [0, 1, 2].map((i) => sentenceStretch(data, i));
  const pool = piecePool(backend, 2, 3600, undefined);
  assert.ok(pool, 'a pool of piece threads');
  try {
    // one step's searches at standard, a later step's at high, over the one pool
    const repairs = new StretchSearches(backend, recording, units, {
      precision: 'standard',
      garbage: true,
      pieces: pool.runner('standard', true, false),
    });
    const later = new StretchSearches(backend, recording, units, {
      precision: 'high',
      garbage: true,
      pieces: pool.runner('high', true, false),
    });
    // the three go to the thread: it starts the first, the others wait behind it
    later.prefetch(stretches);
    assert.ok(await repairs.takeBack(), 'a search the thread held is taken back');
    const got = await Promise.all(stretches.map((s) => later.get(s)));
    const alone = new StretchSearches(backend, recording, units, { precision: 'high', garbage: true });
    const expected = await Promise.all(stretches.map((s) => alone.get(s)));
    const times = (spans: UnitSpan[][]) =>
      spans.map((ss) => ss.map((s) => [s.unit, s.start, s.end, s.confidence]));
    assert.deepEqual(times(got), times(expected));
  } finally {
    await pool.close();
  }
});

test('two passes over joined sentences place the words near the hand labels, reporting progress', async () => {
  const { samples, words, backend, units } = await joined();
  const progress: number[] = [];
  // about 12 s of speech: single search only up to 4 s, 6 s first-pass windows -> several windows
  const spans = await alignLong(backend, new Samples(samples, true), units, {
    precision: 'standard',
    garbage: true,
    singleMax: 4,
    window: 6,
    guard: 2,
    onProgress: (d) => progress.push(d),
  });
  assert.ok(spans.length >= units.length - 1, `${spans.length} of ${units.length} placed`);
  let err = 0;
  for (const s of spans) {
    err += Math.abs(s.start - words[s.unit]!.start) + Math.abs(s.end - words[s.unit]!.end);
    assert.ok(s.phones.length > 0, 'second pass gives phones');
  }
  for (let i = 1; i < spans.length; i++) assert.ok(spans[i]!.unit > spans[i - 1]!.unit, 'in order');
  assert.ok(err / (2 * spans.length) < 0.05, `mean boundary error ${err / (2 * spans.length)} s`);
  assert.ok(progress.length > 3, 'progress reported along the way');
  assert.ok(progress.every((d, i) => d >= 0 && d <= 1 && (i === 0 || d >= progress[i - 1]!)));
  assert.equal(progress[progress.length - 1], 1);
});

test('each piece is searched once, adapted to its speaker as the first pass heard it there', async () => {
  const { samples, words, backend, units } = await joined();
  // every search the decoder runs: its level (0: the first pass, 1: a piece) and whether it was adapted
  const decoder = backend.decoder;
  const searches: { level: number; adapted: boolean }[] = [];
  let adapted = false;
  decoder.configure = function (this: typeof decoder, s) {
    adapted = s.transform !== undefined;
    return Object.getPrototypeOf(decoder).configure.call(this, s);
  };
  decoder.run = function (this: typeof decoder, ...args) {
    searches.push({ level: args[2] ?? 1, adapted });
    return Object.getPrototypeOf(decoder).run.apply(this, args);
  };
  let spans: UnitSpan[];
  try {
    spans = await alignLong(backend, new Samples(samples, true), units, {
      precision: 'standard',
      garbage: true,
      singleMax: 4,
      window: 6,
      guard: 2,
    });
  } finally {
    delete (decoder as Partial<typeof decoder>).configure;
    delete (decoder as Partial<typeof decoder>).run;
  }
  const first = searches.filter((s) => s.level === 0);
  const pieces = searches.filter((s) => s.level === 1);
  assert.ok(
    first.length >= 2 && first.every((s) => !s.adapted),
    'the first pass reads the features as they are',
  );
  // the one piece (12 s of speech): before, a search to fit the transform to, then the adapted one
  assert.ok(pieces.length >= 1 && pieces.every((s) => s.adapted), JSON.stringify(pieces));
  assert.ok(spans.length >= units.length - 1, `${spans.length} of ${units.length} placed`);
  let err = 0;
  for (const s of spans)
    err += Math.abs(s.start - words[s.unit]!.start) + Math.abs(s.end - words[s.unit]!.end);
  assert.ok(err / (2 * spans.length) < 0.05, `mean boundary error ${err / (2 * spans.length)} s`);
});

test('the speaker track keeps the frames of the words its caller commits, by time in the file, until it forgets them', async () => {
  const { samples, backend, units } = await joined();
  const duration = samples.length / SAMPLE_RATE;
  const heard = async (offset: number, upTo: number, from?: number, track = backend.speakerTrack()!) => {
    await backend.segmentWindow({
      samples,
      offset,
      units,
      precision: 'standard',
      openEnd: false,
      garbage: true,
      listen: track,
    });
    track.keep(upTo, from);
    backend.release();
    return track;
  };
  const whole = await heard(0, duration);
  const all = whole.adaptationFor(0, duration);
  // 12 s of speech (fillers left out): more than the 8 s a window's adaptation needs
  assert.ok(all && all.frames > 800 && all.frames < duration * 100, `${all?.frames} frames`);
  assert.ok((all as { cmn?: Float64Array }).cmn, "the mean the first pass's window subtracted goes with it");
  // a stretch gets the frames of its own seconds only
  const early = whole.adaptationFor(0, duration / 2);
  assert.equal(early, undefined, 'half the speech is too little to adapt to');
  // the same window 100 s into the file: its frames are at 100 s and after
  const later = await heard(100, 100 + duration);
  assert.equal(later.adaptationFor(100, 100 + duration)?.frames, all.frames);
  assert.equal(later.adaptationFor(0, duration), undefined);
  // what the caller does not commit is not kept
  const cut = await heard(0, duration / 2);
  assert.equal(cut.adaptationFor(0, duration), undefined);
  // a window heard again over frames an earlier one kept adds only those after them (here none)
  const twice = await heard(0, duration);
  await heard(0, duration, duration, twice);
  assert.equal(twice.adaptationFor(0, duration)?.frames, all.frames);
  // and what is forgotten is gone
  whole.forget(duration);
  assert.equal(whole.adaptationFor(0, duration), undefined);
  // a keep() with nothing heard since the last one keeps nothing
  whole.keep(duration);
  assert.equal(whole.adaptationFor(0, duration), undefined);
});

test('a recording kept in a file (PcmFile) is aligned as the same samples in memory', async () => {
  const { samples, backend, units } = await joined();
  const ints = Int16Array.from(samples, toS16);
  const opts = { precision: 'standard' as const, garbage: true, singleMax: 4, window: 6, guard: 2 };
  const inFile = new Samples(PcmFile.write(ints), true);
  try {
    const fromFile = await alignLong(backend, inFile, units, opts);
    assert.ok(fromFile.length >= units.length - 1, `${fromFile.length} of ${units.length} placed`);
    assert.deepEqual(fromFile, await alignLong(backend, new Samples(ints, true), units, opts));
  } finally {
    inFile.close();
  }
});

test('the first pass reads a stretch of the file with its words, and places them inside it', async () => {
  // what a piece with no first-pass words to cut at gets: the open windows again, over its own stretch
  const { samples, words, starts, perUtt, backend, units } = await joined();
  const from = starts[1]!;
  const to = samples.length / SAMPLE_RATE;
  const u0 = perUtt[0]!;
  const spans = await segmentPass(
    backend,
    new Samples(samples, true),
    units.slice(u0),
    { precision: 'standard', garbage: true, window: 6, guard: 2 },
    undefined,
    { from, to },
  );
  assert.ok(spans.length >= units.length - u0 - 1, `${spans.length} of ${units.length - u0} placed`);
  let err = 0;
  for (const s of spans) {
    assert.ok(s.start >= from - 1e-3 && s.end <= to + 1e-3, `${s.start}-${s.end} inside ${from}-${to}`);
    err += Math.abs(s.start - words[s.unit + u0]!.start) + Math.abs(s.end - words[s.unit + u0]!.end);
  }
  assert.ok(err / (2 * spans.length) < 0.06, `mean boundary error ${err / (2 * spans.length)} s`);
});

test('the first piece starts after speech the first pass placed no word of the text in, in the pause before the text', async () => {
  // emu-ae's sentence (not in the text), 0.6 s of faint noise, then a timit-dev sentence whose words the text holds
  const intro = (await decodeAudio(join(evalDir(), 'emu-ae', 'msajc003.wav'))).samples;
  const own = (await decodeAudio(join(EVAL, `${UTTS[0]}.wav`))).samples;
  const gap = new Float32Array(9600).map((_, i) => ((i % 3) - 1) / 32768);
  const all = new Float32Array(intro.length + gap.length + own.length);
  all.set(intro);
  all.set(gap, intro.length);
  all.set(own, intro.length + gap.length);
  const samples = new Samples(all, true);
  const textAt = (intro.length + gap.length) / SAMPLE_RATE;
  const words = JSON.parse(readFileSync(join(EVAL, `${UTTS[0]}.json`), 'utf8')).words as { start: number }[];
  const firstWord = textAt + words[0]!.start;
  const { units } = await englishUnits(
    await loadDecoder('en'),
    'she had your dark suit in greasy wash water all year',
  );
  const first = [span(0, firstWord, firstWord + 0.3), span(1, firstWord + 0.3, firstWord + 0.6)];
  const start = textStart(samples, units, first);
  assert.ok(
    start > intro.length / SAMPLE_RATE && start < firstWord,
    `${start}: the intro ends at ${intro.length / SAMPLE_RATE}, the text starts at ${firstWord}`,
  );
  assert.ok(firstWord - start <= 1, 'at most a second before the first word');
  const plan = planPieces(first, units.length, samples.length / SAMPLE_RATE, start);
  assert.equal(plan[0]!.t0, start);
  // the text's first word left out by the first pass: looked for before the first word placed, after the
  // introduction still; nine words left out: from 0 (they may lie anywhere in the speech before)
  const later = textStart(samples, units, first.slice(1));
  assert.ok(later > intro.length / SAMPLE_RATE && later <= start, `${later}`);
  assert.equal(textStart(samples, units, [span(9, firstWord + 3, firstWord + 3.3)]), 0);
  // the same sentence with no other speech before it: from 0
  const alone = new Samples(Float32Array.from([...gap, ...own]), true);
  const at = gap.length / SAMPLE_RATE + words[0]!.start;
  assert.equal(textStart(alone, units, [span(0, at, at + 0.3)]), 0);
});

test('a cut is not made where the first pass skipped words, while a clean cut is on offer', () => {
  // one word a second; the first pass skipped units 30-39 and left a 6 s "pause" where they were spoken
  const first: UnitSpan[] = [];
  let t = 0;
  for (let u = 0; u < 80; u++) {
    if (u === 30) {
      u = 40;
      t += 6;
    }
    first.push(span(u, t, t + 0.8));
    t += u === 20 ? 1.5 : 1;
  }
  const pieces = planPieces(first, 80, t);
  // the widest gap (after unit 29) holds the skipped words' audio: the first cut is the clean 0.7 s pause
  assert.equal(pieces[0]!.u1, 21);
  for (const p of pieces)
    assert.ok(!(p.u0 > 30 && p.u0 <= 40), `a piece starts inside the skipped run: ${p.u0}`);
});

test('a window ran ahead of its speech when it skipped 15 % of the words it ran through, in short runs, before its guard zone', () => {
  const units = wordUnits(26);
  // a word a second; every fourth word skipped: 5 of 20 run through
  const every4 = [...Array(20).keys()].filter((u) => u % 4 !== 3).map((u, k) => span(u, k, k + 0.8));
  assert.equal(ranAhead(units, 0, every4, 100), true);
  // one in ten: no
  const every10 = [...Array(20).keys()].filter((u) => u % 10 !== 9).map((u, k) => span(u, k, k + 0.8));
  assert.equal(ranAhead(units, 0, every10, 100), false);
  // the skips after the guard zone's start, or after a derailment (text the speaker left out), do not count
  assert.equal(ranAhead(units, 0, every4, 2.9), false);
  const derailed = [
    span(0, 0, 1),
    span(1, 1, 2),
    span(2, 2, 3),
    span(8, 3, 4),
    span(10, 4, 5),
    span(12, 5, 6),
  ];
  assert.equal(ranAhead(units, 0, derailed, 100), false);
  // counted from the window's first unit in the text
  assert.equal(ranAhead(units, 6, every4.slice(0, 10), 100), true);
});

test('a window ran ahead of its speech over its last 30 words when they skipped a fifth as many', () => {
  const units = wordUnits(120);
  // 60 words placed one by one (speech the text holds), then every fourth skipped (speech it leaves out,
  // the text's words placed on it): 12 of 107 over the window, 10 of 40 over its last 30 words
  const ranAfter = (skip: (u: number) => boolean) =>
    ranAhead(
      units,
      0,
      [...Array(108).keys()].filter((u) => u < 60 || !skip(u)).map((u, k) => span(u, k, k + 0.8)),
      1000,
    );
  assert.equal(
    ranAfter((u) => u % 4 === 3),
    true,
  );
  // one in ten at the end: no
  assert.equal(
    ranAfter((u) => u % 10 === 9),
    false,
  );
});

test('a window commits up to its first derailment, counted in words it could have placed', () => {
  const units = wordUnits(30);
  // words 10-13 skipped: the path derailed there, and commits up to word 9 at the latest
  const spans = [...Array(30).keys()].filter((u) => u < 10 || u > 13).map((u) => span(u, u, u + 0.8));
  assert.ok(commitPoint(units, 0, spans, 100).cut <= 9);
  // the same four with no pronunciation (nothing a search could place): no derailment, the path commits
  // past them (cut in the widest of its last gaps)
  const unspoken = units.map((u, i) => (i >= 10 && i <= 13 ? { ...u, prons: [] } : u));
  assert.ok(spans[commitPoint(unspoken, 0, spans, 100).cut]!.unit > 13);
  // the spans count their units from `at`
  assert.ok(spans[commitPoint([...wordUnits(5), ...unspoken], 5, spans, 100).cut]!.unit > 13);
});

test("a window's path with the loop is its own path less speech the text leaves out when it keeps most of its words over most of its stretch", () => {
  // the window's own path: 40 words, one a second from 0 s; it commits those ending before 30 s
  const own = [...Array(40).keys()].map((u) => span(u, u, u + 0.8));
  // the loop took 6 s of speech the text leaves out from 10 s: the words after it are 6 s later
  const looped = [...Array(40).keys()].map((u) => span(u, u < 10 ? u : u + 6, (u < 10 ? u : u + 6) + 0.8));
  // 24 of 30 committed words over the same 30 s
  assert.equal(loopFits(own, looped, 30), true);
  // the loop took half the window's speech: 15 of 30 words
  const half = [...Array(40).keys()].map((u) => span(u, u < 5 ? u : u + 15, (u < 5 ? u : u + 15) + 0.8));
  assert.equal(loopFits(own, half, 30), false);
  // 24 words, but packed into the window's first 19 s (the loop took the rest of it)
  const packed = [...Array(24).keys()].map((u) => span(u, u * 0.8, u * 0.8 + 0.7));
  assert.equal(loopFits(own, packed, 30), false);
  // no word committed by either path
  assert.equal(loopFits(own, [], 30), false);
  assert.equal(loopFits([], looped, 30), false);
});

test('hoarse, disfluent speech in one long file keeps most of its words (the first pass derails there)', async () => {
  // en-mfa-testdata's three recordings joined (77 s, so the two-pass path): before the first pass was kept
  // from committing and cutting past a skipped run, 79 of 185 words were lost (one file at a time: 7).
  const dir = join(evalDir(), 'en-mfa-testdata');
  const names = ['acoustic_corpus', 'cold_corpus', 'cold_corpus3'];
  const parts = await Promise.all(names.map(async (n) => (await decodeAudio(join(dir, `${n}.wav`))).samples));
  const samples = new Float32Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    samples.set(p, at);
    at += p.length;
  }
  const text = names
    .map((n) => (JSON.parse(readFileSync(join(dir, `${n}.json`), 'utf8')) as { text: string }).text)
    .join('\n');
  assert.ok(samples.length / SAMPLE_RATE > 75, 'long enough for the two-pass path');
  const { backend, units } = await englishUnits(await loadDecoder('en'), text);
  const spans = await alignLong(backend, new Samples(samples, true), units, {
    precision: 'standard',
    garbage: true,
  });
  assert.equal(units.length, 185);
  assert.ok(spans.length >= 140, `${spans.length} of 185 units placed (106 before, 150 after)`);
  for (let k = 1; k < spans.length; k++) assert.ok(spans[k]!.start >= spans[k - 1]!.end - 1e-6, 'in order');

  // With a piece thread, the repairs' searches (failed edges, runs of unplaced words) are handed to it
  // ahead, and the sequential repairs take them: the words are those of one thread. (How many of the five
  // or so it starts before this thread takes the rest back depends on timing: under load, none.)
  const pool = piecePool(backend, 2, samples.length / SAMPLE_RATE, undefined);
  assert.ok(pool, 'a pool of piece threads');
  try {
    // the repairs' searches (no recognition) handed to the other thread
    const { result: threaded, given: stretches } = await onThreads(
      (job) => (job.recognise ? 0 : 1),
      () =>
        alignLong(backend, new Samples(samples, true), units, {
          precision: 'standard',
          garbage: true,
          pieces: pool.runner('standard', true, true),
        }),
    );
    assert.ok(stretches > 0, 'repair searches were handed to the piece thread');
    assert.deepEqual(threaded, spans);
  } finally {
    await pool.close();
  }
});

test('a long recording aligned with its pieces on another thread gives the result of one thread, the other thread doing a share', async () => {
  // timit-dev's 80 sentences joined (233 s: the two-pass path, seven pieces or so), the engine's way
  const names = readdirSync(EVAL)
    .filter((f) => f.endsWith('.wav'))
    .map((f) => f.slice(0, -4))
    .sort();
  const parts = await Promise.all(
    names.map(async (n) => (await decodeAudio(join(EVAL, `${n}.wav`))).samples),
  );
  const samples = new Float32Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    samples.set(p, at);
    at += p.length;
  }
  const text = names
    .map((n) => (JSON.parse(readFileSync(join(EVAL, `${n}.json`), 'utf8')) as { text: string }).text)
    .join('\n');
  const audioInfo = { format: 'wav', sampleRate: 16000, channels: 1 };
  const one = await align(samples, text, { lang: 'en', threads: 1, audioInfo });
  // the seconds of audio the other thread aligns: given to it and not taken back
  const { result: two, total: onThread } = await onThreads(
    (job) => job.pcm.length / SAMPLE_RATE,
    () => align(samples, text, { lang: 'en', threads: 2, audioInfo }),
  );
  // The other thread takes half the audio or more (pieces and repair searches, not counting what this
  // thread took back from it: 118-157 of 233 s in two runs).
  // When this thread did not let its event loop turn between its own searches, the other thread's
  // replies went unread, it looked busy, and it was given the two pieces it held first only (52 s).
  assert.ok(
    onThread >= 0.3 * one.audio.duration,
    `the other thread aligned ${onThread.toFixed(1)} of ${one.audio.duration.toFixed(1)} s`,
  );
  assert.ok(one.audio.duration > 200);
  assert.ok(one.metrics.words_aligned > 0.9 * one.metrics.words_total);
  assert.deepEqual(
    two.words.map((w) => [w.start, w.end, w.confidence, w.phones.map((p) => p.start)]),
    one.words.map((w) => [w.start, w.end, w.confidence, w.phones.map((p) => p.start)]),
  );
  assert.equal(two.metrics.phone_error_rate, one.metrics.phone_error_rate);
});

test('a pool warmed for the model places a piece as this thread does; a warm-up that cannot load is reported by the piece, and the thread goes on', async () => {
  const { samples, backend, units } = await joined();
  // the first sentence's words over its own audio (the first pass's spans are not needed for a closed search)
  const first = units.slice(0, 11);
  const piece = samples.slice(0, Math.round(3.2 * SAMPLE_RATE));
  const job = (modelDir?: string) => ({
    family: 'en' as const,
    modelDir,
    pcm: piece.slice(),
    origin: 0,
    offset: 0,
    units: first,
    coarse: [],
    precision: 'standard' as const,
    garbage: true,
    recognise: false,
  });
  // warmed for the model every piece uses: the piece's words as this thread places them
  const warmed = new WindowPool(1, { family: 'en' });
  try {
    const here = await alignLong(backend, new Samples(piece.slice(), true), first, {
      precision: 'standard',
      garbage: true,
    });
    const there = await warmed.run(job());
    assert.ok(there.spans.length >= 9, `${there.spans.length} of 11 words placed`);
    assert.deepEqual(
      there.spans.map((s) => s.unit),
      here.map((s) => s.unit),
    );
  } finally {
    await warmed.close();
  }
  // warmed for a folder that is not a model: the warm-up fails unseen, the piece says why
  const missing = join(EVAL, 'no-such-model');
  const broken = new WindowPool(1, { family: 'en', modelDir: missing });
  try {
    await assert.rejects(broken.run(job(missing)), (err: Error) =>
      err.message.includes('is not an adapted model'),
    );
    const after = await broken.run(job());
    assert.ok(after.spans.length >= 9, 'the same thread aligns the next piece with the base model');
  } finally {
    await broken.close();
  }
});

/** Sentence i of joined() as a piece thread's job, over its own audio. */
function sentenceJob(data: Awaited<ReturnType<typeof joined>>, i: number, modelDir?: string) {
  const { samples, starts, units } = data;
  const { u0, u1 } = sentenceStretch(data, i);
  const from = Math.round(starts[i]! * SAMPLE_RATE);
  const to = Math.round(starts[i + 1]! * SAMPLE_RATE);
  return {
    family: 'en' as const,
    modelDir,
    pcm: samples.slice(from, to),
    origin: from,
    offset: starts[i]!,
    units: units.slice(u0, u1),
    coarse: [],
    precision: 'standard' as const,
    garbage: true,
    recognise: false,
  };
}

test('a piece thread holds PIECES_HELD pieces at once and answers each, in order, as it answers it alone; a failing one fails alone', async () => {
  const joinedData = await joined();
  const { starts, perUtt } = joinedData;
  const sentence = (i: number, modelDir?: string) => sentenceJob(joinedData, i, modelDir);
  const pool = new WindowPool(1, { family: 'en' });
  try {
    const alone = [await pool.run(sentence(0)), await pool.run(sentence(1))];
    assert.equal(pool.free, PIECES_HELD);
    // as many as it holds given at once, and one more that waits for a place
    const held = Array.from({ length: PIECES_HELD }, (_, i) => pool.run(sentence(i % 2)));
    assert.equal(pool.free, 0);
    const more = pool.run(sentence(PIECES_HELD % 2));
    assert.deepEqual(
      await Promise.all(held),
      held.map((_, i) => alone[i % 2]),
    );
    assert.deepEqual(await more, alone[PIECES_HELD % 2]);
    assert.ok(alone[1]!.spans.length >= perUtt[1]! - 1, 'the second sentence is placed');
    assert.ok(alone[1]!.spans[0]!.start >= starts[1]!, 'in its own audio');
    // a piece that fails between two held ones: only it is refused
    const missing = join(EVAL, 'no-such-model');
    const [ok, bad, next] = [pool.run(sentence(0)), pool.run(sentence(1, missing)), pool.run(sentence(1))];
    assert.deepEqual(await ok, alone[0]);
    await assert.rejects(bad, (err: Error) => err.message.includes('is not an adapted model'));
    assert.deepEqual(await next, alone[1]);
    assert.equal(pool.free, PIECES_HELD);
  } finally {
    await pool.close();
  }
});

test('a piece a thread holds and has not started is taken back once: the caller settles it, the thread never aligns it, and its place is free again', async () => {
  const joinedData = await joined();
  const { samples, units } = joinedData;
  const sentence = (i: number) => sentenceJob(joinedData, i);
  const pool = new WindowPool(1, { family: 'en' });
  try {
    const alone = [await pool.run(sentence(0)), await pool.run(sentence(1))];
    // nothing held: nothing to take back
    assert.equal(pool.takeBack(), null);
    // two given: the second waits behind the first, and is the one taken back
    const second = sentence(1);
    const both = [pool.run(sentence(0)), pool.run(second)];
    const taken = pool.takeBack();
    assert.ok(taken, 'the piece waiting behind the first is taken back');
    assert.equal(taken.job, second);
    assert.equal(pool.free, PIECES_HELD - 1, 'its place is free at once');
    // the thread has started the first one by now or will: it is not taken back, and it is answered
    const againWhileFirst = pool.takeBack();
    if (againWhileFirst) againWhileFirst.settle({ ok: false, error: 'taken back too' });
    // what the caller reports is the piece's outcome: the thread's own answer never replaces it
    const mine = { spans: [], recognitions: [], warnings: ['aligned by the caller'] };
    taken.settle({ ok: true, outcome: mine });
    assert.equal(await both[1], mine);
    if (againWhileFirst) await assert.rejects(both[0]!, /taken back too/);
    else assert.deepEqual(await both[0], alone[0]);
    // a failure the caller reports is the piece's, as the caller's own error
    const [j3, j4] = [sentence(1), sentence(0)];
    const third = pool.run(j3);
    const fourth = pool.run(j4);
    const back = pool.takeBack();
    assert.ok(back, 'the later of two given is taken back');
    assert.equal(back.job, j4);
    const cause = new RangeError('the caller failed');
    back.settle({ ok: false, error: cause.message, cause });
    await assert.rejects(fourth, RangeError);
    assert.deepEqual(await third, alone[1]);
    // taken back again and again while the thread is in a long piece: each keeps its claim until the thread
    // reaches it, and once every claim is taken the thread has no room (a piece then waits for a place
    // instead of being refused)
    const inLong = pool.run({ ...sentence(0), pcm: samples.slice(), units });
    const given: Promise<unknown>[] = [];
    while (pool.free > 0 && given.length < 100) {
      given.push(pool.run(sentence(1)));
      const t = pool.takeBack();
      assert.ok(t, 'the piece just given is taken back');
      t.settle({ ok: true, outcome: mine });
    }
    assert.ok(given.length < 100 && given.length >= PIECES_HELD, `no room after ${given.length} taken back`);
    const late = pool.run(sentence(1));
    for (const g of given) assert.equal(await g, mine);
    assert.ok((await inLong).spans.length >= units.length - 4, 'the four sentences are aligned');
    assert.deepEqual(await late, alone[1]);
    // the thread acknowledges what was taken back, and every place is free again for the next pieces
    for (let i = 0; i < 50 && pool.free < PIECES_HELD; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(pool.free, PIECES_HELD);
    for (let k = 0; k < 20; k++) assert.deepEqual(await pool.run(sentence(k % 2)), alone[k % 2]);
  } finally {
    await pool.close();
  }
});

test('a piece thread that dies fails the pieces it holds and refuses the next at once; the pool goes on with the others', async () => {
  const { samples, units } = await joined();
  const job = () => ({
    family: 'en' as const,
    pcm: samples.slice(0, Math.round(3.2 * SAMPLE_RATE)),
    origin: 0,
    offset: 0,
    units: units.slice(0, 11),
    coarse: [],
    precision: 'standard' as const,
    garbage: true,
    recognise: false,
  });
  const pool = new WindowPool(2, { family: 'en' });
  // the threads as a crash would leave one (its worker ended from outside, mid-piece)
  const workers = (pool as unknown as { threads: { worker: Worker }[] }).threads.map((t) => t.worker);
  try {
    const alone = await pool.run(job());
    assert.equal(pool.free, 2 * PIECES_HELD);
    // each thread holds as many as it can; one thread dies under them
    const held = Array.from({ length: 2 * PIECES_HELD }, () => pool.run(job()));
    assert.equal(pool.free, 0);
    // one more waits for a place, and gets one on the thread that goes on
    const waiting = pool.run(job());
    await workers[0]!.terminate();
    const settled = await Promise.allSettled(held);
    const failed = settled.filter((s) => s.status === 'rejected');
    assert.equal(failed.length, PIECES_HELD, 'the dead thread fails the pieces it held');
    for (const f of failed) assert.match(String((f as PromiseRejectedResult).reason), /piece thread exited/);
    for (const s of settled) if (s.status === 'fulfilled') assert.deepEqual(s.value, alone);
    assert.deepEqual(await waiting, alone);
    // the dead thread takes nothing more: the pool's places are the other thread's
    assert.equal(pool.free, PIECES_HELD);
    assert.deepEqual(await pool.run(job()), alone);
    // with both gone, a piece is refused at once instead of waiting for ever
    await workers[1]!.terminate();
    assert.equal(pool.free, 0);
    await assert.rejects(pool.run(job()), /piece thread exited/);
  } finally {
    await pool.close();
  }
});
