import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readWavAtRate16 } from '../audio/wav.ts';
import { align } from '../engine.ts';
import { seeded } from './common.ts';
import { arabicIpa, generateSynthSets, makeRecording, synthesize } from './synth.ts';
import { arabicSentences, arabicWords } from './synth-text.ts';

const rms = (x: Int16Array, from: number, to: number): number => {
  let p = 0;
  for (let i = from; i < to; i++) p += x[i]! * x[i]!;
  return Math.sqrt(p / Math.max(1, to - from));
};

test("each word of a synthesized sentence gets the synthesizer's times, in order, over the speech", async () => {
  const text = 'ذَهَبَ الْوَلَدُ إِلَى الْمَدْرَسَةِ صَبَاحَ أَمْسِ.';
  const syn = await synthesize(text, { voice: 'ar+m1', rate: 160, pitch: 50 });
  assert.equal(syn.words.length, 6);
  for (const w of syn.words) assert.ok(w && w[1] > w[0], JSON.stringify(syn.words));
  for (let i = 1; i < syn.words.length; i++) assert.ok(syn.words[i]![0] >= syn.words[i - 1]![1] - 1e-9);
  assert.ok(syn.words.at(-1)![1] <= syn.samples.length / 16000 + 1e-6);

  const rec = makeRecording(syn, seeded(1));
  assert.equal(rec.words.length, 6);
  // the leading silence holds only the noise, far below the words; the SNR drawn is what was asked
  const lead = Math.round(rec.words[0]!.start * 16000);
  const speech = rms(rec.samples, lead, Math.round(rec.words.at(-1)!.end * 16000));
  const noise = rms(rec.samples, 0, lead - 160);
  assert.ok(rec.snrDb >= 12 && rec.snrDb <= 35);
  assert.ok(20 * Math.log10(speech / noise) > rec.snrDb - 3, `${speech} ${noise} ${rec.snrDb}`);
  assert.ok(!rec.samples.includes(0) || rec.samples.filter((x) => x === 0).length < rec.samples.length / 100);
});

test("the grammar gives different vowelled sentences and the IPA is the lattice's first reading", () => {
  const s = arabicSentences(200, seeded(3));
  assert.equal(new Set(s).size, 200);
  assert.ok(s.every((x) => /[\u064E-\u0650]/.test(x)));
  assert.ok(arabicWords().length > 200);
  assert.equal(arabicIpa('صَبَاحَ'), 'sˤabaːħa');
});

test('a generated set is in the eval format and the aligner places its words near the references', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tz-synth-'));
  try {
    await generateSynthSets(dir, 0.01);
    for (const set of ['synth-ar', 'synth-ar-plain', 'synth-ipa']) {
      const files = readdirSync(join(dir, set)).filter((f) => f.endsWith('.json'));
      assert.ok(files.length >= 1, set);
      const ref = JSON.parse(readFileSync(join(dir, set, files[0]!), 'utf8')) as {
        audio: string;
        text: string;
        text_is?: string;
        words: { w: string; start: number; end: number }[];
        duration: number;
      };
      const wav = readWavAtRate16(join(dir, set, ref.audio), 16000)!;
      assert.equal(wav.probe.sampleRate, 16000);
      assert.ok(Math.abs(wav.samples.length / 16000 - ref.duration) < 1e-3);
      const res = await align(join(dir, set, ref.audio), ref.text, {
        lang: 'ar',
        inputKind: ref.text_is === 'ipa' ? 'ipa' : 'orthography',
        engine: 'hmm',
      });
      const placed = res.words.filter((w) => w.start !== null);
      assert.equal(placed.length, ref.words.length, set);
      // word starts within 100 ms of the synthesizer's on average: the references are where the speech is
      const err = placed.reduce((a, w, i) => a + Math.abs(w.start! - ref.words[i]!.start), 0) / placed.length;
      assert.ok(err < 0.1, `${set}: mean start error ${err}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
