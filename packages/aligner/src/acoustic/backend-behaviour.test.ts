// One behaviour suite, run against every acoustic back-end: what the engine's pipeline relies on, whatever
// the back-end. hmm runs on the real English model with a TIMIT sentence of the eval set (fails loudly when
// the set is absent); mms on the tiny ONNX stand-in the tests build (test-support/tiny-model.ts), whose
// times mean nothing, so the assertions are on structure, not accuracy.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { evalDir } from '@tazamun/aligner/testing/eval-dir';
import { speakWords, useModelsDir } from '@tazamun/aligner/testing/tiny-model';
import { decodeAudio, SAMPLE_RATE } from '../audio/decode.ts';
import { align, selectBackend } from '../engine.ts';
import { normalizeTranscript } from '../text/normalize.ts';
import type { ModelToken } from '../text/normalize.ts';
import type { AcousticBackend, Unit, UnitSpan, WindowRequest } from './backend.ts';

interface Fixture {
  backend: AcousticBackend;
  /** 16 kHz mono speech and its transcript */
  audio: Float32Array;
  text: string;
  /** the transcript with a word inserted that the audio does not say, and that word's index */
  textWithExtra: string;
  extraWord: number;
  cleanup: () => void;
}

interface Case {
  engine: 'hmm' | 'mms';
  /** how the fixture's English words are pronounced: the model's dictionary, or romanised letters */
  route: string;
  load: () => Promise<Fixture>;
}

const CASES: Case[] = [
  {
    engine: 'hmm',
    route: 'dictionary',
    async load() {
      const utt = join(evalDir(), 'timit-dev', 'dr1-fvmh0_sa1');
      assert.ok(existsSync(`${utt}.wav`), `eval set missing: ${utt}.wav`);
      const { text } = JSON.parse(readFileSync(`${utt}.json`, 'utf8')) as { text: string };
      assert.match(text, /^She had your dark suit in greasy wash water all year/);
      return {
        backend: await selectBackend('hmm', 'eng'),
        audio: (await decodeAudio(`${utt}.wav`)).samples,
        text,
        textWithExtra: 'She had your dark suit in greasy telephone wash water all year.',
        extraWord: 7,
        cleanup: () => {},
      };
    },
  },
  {
    engine: 'mms',
    route: 'romanised',
    async load() {
      // The engine finds the model where `models pull` leaves it; this file runs in its own process.
      const models = useModelsDir();
      return {
        backend: await selectBackend('mms', 'eng'),
        audio: speakWords(['good', 'morning', 'friend']).audio,
        text: 'Good morning, friend.',
        textWithExtra: 'Good morning dear friend.',
        extraWord: 2,
        cleanup: models.restore,
      };
    },
  },
];

const tokensOf = (text: string): ModelToken[] => normalizeTranscript(text, 'eng').tokens;

function request(samples: Float32Array, units: Unit[], offset = 0): WindowRequest {
  return { samples, offset, units, precision: 'standard', openEnd: false, garbage: true };
}

/** Spans in unit order, inside [from, to], not overlapping, each phone inside its span, scores in [0, 1]. */
function assertWellFormed(spans: UnitSpan[], units: Unit[], from: number, to: number): void {
  const eps = 1e-6;
  spans.forEach((s, i) => {
    assert.ok(s.unit >= 0 && s.unit < units.length, `span ${i} names unit ${s.unit}`);
    if (i > 0) {
      assert.ok(s.unit > spans[i - 1]!.unit, `span ${i}: units in order`);
      assert.ok(s.start >= spans[i - 1]!.end - eps, `span ${i} overlaps the one before`);
    }
    assert.ok(
      s.start >= from - eps && s.end <= to + eps,
      `span ${i} ${s.start}-${s.end} outside ${from}-${to}`,
    );
    assert.ok(s.end > s.start, `span ${i} has no duration`);
    assert.ok(s.confidence >= 0 && s.confidence <= 1, `span ${i} confidence ${s.confidence}`);
    assert.ok(s.phones.length > 0, `span ${i} has no phones`);
    s.phones.forEach((p, k) => {
      assert.ok(p.start >= s.start - eps && p.end <= s.end + eps, `span ${i} phone ${k} outside its span`);
      if (k > 0) assert.ok(p.start >= s.phones[k - 1]!.start, `span ${i} phone ${k} out of order`);
      assert.ok(p.confidence >= 0 && p.confidence <= 1, `span ${i} phone ${k} confidence ${p.confidence}`);
    });
  });
}

for (const c of CASES) {
  describe(`the ${c.engine} back-end`, () => {
    let f: Fixture;
    before(async () => {
      f = await c.load();
    });
    after(() => f?.cleanup());

    test('is the one selectBackend returns for its engine', () => {
      assert.equal(f.backend.name, c.engine);
    });

    test('pronounce: one unit per token, pointing back to its token and word', async () => {
      const tokens = tokensOf(f.text);
      const { units, route } = await f.backend.pronounce(tokens, 'eng', 'orthography');
      assert.equal(units.length, tokens.length);
      units.forEach((u, i) => {
        assert.equal(u.tokenIndex, i);
        assert.equal(u.wordIndex, tokens[i]!.wordIndex);
        assert.ok(u.prons.length > 0 || (u.lattice?.length ?? 0) > 0, `unit ${i} has a pronunciation`);
      });
      assert.equal(route, c.route);
    });

    test('alignWindow: spans in order, inside the window with its offset, not overlapping', async () => {
      const { units } = await f.backend.pronounce(tokensOf(f.text), 'eng', 'orthography');
      const seconds = f.audio.length / SAMPLE_RATE;
      const at0 = await f.backend.alignWindow(request(f.audio, units));
      assert.ok(at0.length >= units.length - 1, `${at0.length} of ${units.length} units placed`);
      assertWellFormed(at0, units, 0, seconds);
      // The same window placed 12.5 s into a file: every time moves by the offset, nothing else changes.
      const moved = await f.backend.alignWindow(request(f.audio, units, 12.5));
      assertWellFormed(moved, units, 12.5, 12.5 + seconds);
      assert.deepEqual(
        moved.map((s) => s.unit),
        at0.map((s) => s.unit),
      );
      moved.forEach((s, i) => {
        assert.ok(Math.abs(s.start - 12.5 - at0[i]!.start) < 1e-3, `span ${i} start`);
        assert.ok(Math.abs(s.end - 12.5 - at0[i]!.end) < 1e-3, `span ${i} end`);
      });
    });

    test('a word the audio does not say may be left out, and the order holds', async () => {
      const tokens = tokensOf(f.textWithExtra);
      const { units } = await f.backend.pronounce(tokens, 'eng', 'orthography');
      const spans = await f.backend.alignWindow(request(f.audio, units));
      assertWellFormed(spans, units, 0, f.audio.length / SAMPLE_RATE);
      const others = units.filter((u) => u.wordIndex !== f.extraWord).length;
      const placedOthers = spans.filter((s) => units[s.unit]!.wordIndex !== f.extraWord).length;
      assert.ok(placedOthers >= others - 1, `${placedOthers} of the ${others} spoken units placed`);
    });

    test('recognise: counts, error rates and per-word hits that agree with each other', async () => {
      const { units } = await f.backend.pronounce(tokensOf(f.text), 'eng', 'orthography');
      const r = await f.backend.recognise(f.audio, units);
      assert.ok(r.counts, 'counts are given');
      const { phoneErrors, phones, wrongWords, words } = r.counts;
      const r3 = (x: number): number => Math.round(x * 1000) / 1000;
      assert.equal(r.cer, r3(Math.min(1, phoneErrors / phones)));
      assert.equal(r.wer, r3(wrongWords / words));
      assert.equal(words, new Set(units.map((u) => u.wordIndex)).size);
      assert.ok(wrongWords >= 0 && wrongWords <= words);
      const perWord = [...(r.perWord ?? new Map<number, { hit: number; n: number }>()).values()];
      assert.equal(perWord.length, words);
      assert.equal(
        perWord.reduce((a, e) => a + e.n, 0),
        phones,
      );
      assert.ok(perWord.every((e) => e.hit >= 0 && e.hit <= e.n));
      assert.ok(r.method.length > 0);
    });

    test('align(): a result of the contract whose engine block names this back-end', async () => {
      const res = await align(f.audio, f.text, { lang: 'eng', engine: c.engine });
      assert.deepEqual(AlignmentResult.parse(res), res);
      assert.equal(res.engine.backend, c.engine);
      assert.equal(res.engine.model, f.backend.model);
      assert.equal(res.engine.version, f.backend.version);
      assert.equal(res.words.length, normalizeTranscript(f.text, 'eng').words.length);
      assert.ok(res.metrics.coverage > 0.8, `coverage ${res.metrics.coverage}`);
      assert.notEqual(res.metrics.phone_error_rate, null, 'the recognition pass ran');
      let prevEnd = 0;
      for (const w of res.words.filter((x) => x.status === 'aligned')) {
        assert.ok(w.start! >= prevEnd - 1e-6, `"${w.word}" starts before the previous word ends`);
        assert.ok(w.confidence >= 0 && w.confidence <= 1);
        assert.ok(w.phones.length > 0);
        prevEnd = w.end!;
      }
    });
  });
}
