// Model adaptation (issue 31): phones added to a model, the model folder written and read back, the CLI's
// adapt then align --model on a corpus in MFA's layout, a corpus too small refused, and hand-placed words
// taken as ground truth.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evalDir } from '@tazamun/aligner/testing/eval-dir';
import { writeClonedModel } from '@tazamun/aligner/testing/cloned-model';
import { align } from '../../../engine.ts';
import type { EngineError } from '../../../errors.ts';
import { loadAcousticModel } from '../model/acoustic-model.ts';
import { phoneSenones } from '../model/mdef.ts';
import { densityOffset } from '../scoring/gaussians.ts';
import { ARABIC_PHONES, adaptModel, edgeWords } from './corpus.ts';
import { EDGES_FILE, edgeKeys, edgeShift } from './edges.ts';
import { loadDecoder } from '../backend.ts';
import { fixedWordsOf } from '../../../bench/adapt.ts';
import type { RefUtt } from '../../../bench/common.ts';
import { MANIFEST, adaptedModelSpec, readEdgeCorrection } from './model-dir.ts';

const CLI = fileURLToPath(new URL('../../../cli/main.ts', import.meta.url));

function tmp(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'tz-adapt-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface Ref {
  audio: string;
  text: string;
  words: { w: string; start: number; end: number }[];
}
const timit = (uid: string): Ref & { wav: string } => {
  const r = JSON.parse(readFileSync(join(evalDir(), 'timit-dev', `${uid}.json`), 'utf8')) as Ref;
  return { ...r, wav: join(evalDir(), 'timit-dev', r.audio) };
};
const timitUids = (speaker: string) =>
  readdirSync(join(evalDir(), 'timit-dev'))
    .filter((f) => f.startsWith(`${speaker}_`) && f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();

test('phones added to a model are copies of their parents, written and read back as a model folder', (t) => {
  const out = join(tmp(t), 'model');
  const { model: m } = writeClonedModel(out);
  for (const f of ['mdef', 'means', 'variances', 'mixture_weights', 'transition_matrices', MANIFEST])
    assert.ok(existsSync(join(out, f)), f);
  const spec = adaptedModelSpec(out);
  assert.equal(spec.family, 'en');
  // a folder without hand corrections (as every folder written before them) has no edge correction
  assert.equal(readEdgeCorrection(out), null);
  assert.deepEqual(spec.extraPhones, [...ARABIC_PHONES]);
  const again = loadAcousticModel({ dir: out, featParams: spec.featParams });
  const n = m.mdef.ciPhones.length;
  assert.equal(again.mdef.ciPhones.length, n + ARABIC_PHONES.length);
  assert.equal(again.mdef.nCiSenones, m.mdef.nCiSenones + 3 * ARABIC_PHONES.length);
  // the copied context-dependent senones: each parent's once per phone cloned from it
  const cdOf = (ci: number) =>
    new Set(
      [...m.mdef.triphones.values()]
        .filter((p) => m.mdef.phoneBase[p] === ci)
        .flatMap((p) => Array.from(phoneSenones(m.mdef, p))),
    ).size;
  const copied = ARABIC_PHONES.reduce((sum, e) => sum + cdOf(m.mdef.ciIndex.get(e.from)!), 0);
  assert.equal(again.mdef.nSenones, m.mdef.nSenones + 3 * ARABIC_PHONES.length + copied);
  // each new phone has its parent's triphones, with senones of its own
  const parentTriphones = ARABIC_PHONES.reduce(
    (n, e) =>
      n +
      [...m.mdef.triphones.values()].filter((p) => m.mdef.phoneBase[p] === m.mdef.ciIndex.get(e.from)).length,
    0,
  );
  assert.equal(again.mdef.triphones.size, m.mdef.triphones.size + parentTriphones);
  ARABIC_PHONES.forEach((e, i) => {
    const own = again.mdef.ciIndex.get(e.phone)!;
    const parent = m.mdef.ciIndex.get(e.from)!;
    assert.equal(own, n + i);
    // its codebook is its parent's, its senones score with its own codebook and its parent's weights
    for (let d = 0; d < m.nDensities; d += 37)
      assert.equal(
        again.means[densityOffset(again, own, 0, d) + 3],
        m.means[densityOffset(m, parent, 0, d) + 3],
      );
    const senones = phoneSenones(again.mdef, own);
    const parentSenones = phoneSenones(m.mdef, parent);
    senones.forEach((s, j) => {
      assert.equal(again.mdef.senoneCi[s], own);
      // (the weights went through probabilities and back: a quantisation step apart at most)
      const per = m.nStreams * m.nDensities;
      const mine = again.mixw.subarray(s * per, (s + 1) * per);
      const theirs = m.mixw.subarray(parentSenones[j]! * per, (parentSenones[j]! + 1) * per);
      assert.ok(
        // (densities at the floor of a quantised file are floored again at the float floor)
        mine.every((q, d) => theirs[d]! > 150 || Math.abs(q - theirs[d]!) <= 1),
        `senone ${s} weighs its densities as its parent's ${parentSenones[j]}`,
      );
    });
  });
  // the base's triphones keep their senones (moved up past the new CI senones)
  const aa = m.mdef.ciIndex.get('AA')!;
  const [key, pid] = [...m.mdef.triphones].find(([, p]) => m.mdef.phoneBase[p] === aa)!;
  const shifted = Array.from(phoneSenones(m.mdef, pid)).map((s) => s + 3 * ARABIC_PHONES.length);
  const newKeyPid = [...again.mdef.triphones.values()].find(
    (p) => again.mdef.phoneBase[p] === aa && phoneSenones(again.mdef, p).join() === shifted.join(),
  );
  assert.ok(newKeyPid !== undefined, `the triphone ${key} kept its senones`);
});

test('an Arabic recording aligned with a model that has Arabic phones: the tier is not approximated', async (t) => {
  const out = join(tmp(t), 'model');
  const { manifest } = writeClonedModel(out);
  const dir = join(evalDir(), 'ar-synthetic');
  const ref = JSON.parse(readFileSync(join(dir, 'arsyn_01.json'), 'utf8')) as Ref;
  const plain = await align(join(dir, ref.audio), ref.text, { lang: 'ar', recognition: false });
  const own = await align(join(dir, ref.audio), ref.text, { lang: 'ar', recognition: false, model: out });
  assert.equal(own.engine.model, manifest.id);
  const phones = (r: typeof own) => r.words.flatMap((w) => w.phones ?? []);
  assert.ok(
    phones(plain).some((p) => p.approximated),
    'the English model stands in for Arabic phones',
  );
  const approximated = phones(own).filter((p) => p.approximated);
  assert.deepEqual(approximated, [], 'every Arabic phone has a model phone of its own');
  // ʕ, ʔ and q are the model's own now
  const models = new Set(phones(own).map((p) => p.model_phone));
  assert.ok(models.has('ar_hamza') && models.has('ar_qaf'), [...models].join(' '));
  assert.equal(own.words.filter((w) => w.start !== null).length, ref.words.length);
  // a French transcript cannot use an English-family model
  await assert.rejects(
    align(join(dir, ref.audio), 'bonjour', { lang: 'fr', recognition: false, model: out }),
    (err: EngineError) => err.code === 'unsupported_option',
  );
});

test('before re-estimation, phones cloned with their triphones score as their parents: the same boundaries', async (t) => {
  // every Arabic phone but ʔ, which the English model places nothing for (its clone adds a phone)
  const extra = ARABIC_PHONES.filter((e) => e.ipa !== 'ʔ');
  const out = join(tmp(t), 'model');
  writeClonedModel(out, extra);
  const dir = join(evalDir(), 'ar-synthetic');
  // and Tunisian words in IPA beginning with ʕ, ħ, x: the edge refinement walks back over their frication
  // as over their parent HH's
  const vox = join(evalDir(), 'ar-voxangeles-aeb');
  for (const [set, uid] of [
    [dir, 'arsyn_01'],
    [dir, 'arsyn_02'],
    [vox, 'aeb-000-040'],
    [vox, 'aeb-000-001'],
    [vox, 'aeb-000-031'],
  ] as const) {
    const ref = JSON.parse(readFileSync(join(set, `${uid}.json`), 'utf8')) as Ref;
    const opts = {
      lang: 'ar',
      recognition: false,
      precision: 'standard' as const,
      inputKind: set === vox ? ('ipa' as const) : ('orthography' as const),
    };
    const a = await align(join(set, ref.audio), ref.text, opts);
    const b = await align(join(set, ref.audio), ref.text, { ...opts, model: out });
    assert.equal(b.words.length, a.words.length);
    a.words.forEach((w, i) => {
      const v = b.words[i]!;
      for (const k of ['start', 'end'] as const)
        assert.ok(
          w[k] !== null && v[k] !== null && Math.abs(w[k] - v[k]) <= 0.01,
          `${uid} ${w.word} ${k}: ${w[k]} against ${v[k]}`,
        );
    });
  }
});

test('tazamun adapt on an MFA corpus, then align --model names the adapted model; too small a corpus is refused', async (t) => {
  const work = tmp(t);
  const corpus = join(work, 'corpus');
  // three speakers, the MFA layout: speaker/utterance.wav + .lab
  const speakers = ['dr1-fvmh0', 'dr2-marc0', 'dr4-falr0'];
  for (const s of speakers) {
    mkdirSync(join(corpus, s), { recursive: true });
    for (const uid of timitUids(s)) {
      const r = timit(uid);
      copyFileSync(r.wav, join(corpus, s, `${uid}.wav`));
      writeFileSync(join(corpus, s, `${uid}.lab`), r.text);
    }
  }
  const model = join(work, 'model');
  const cli = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { encoding: 'utf8', timeout: 600_000 });
  const adapted = cli(['adapt', '--corpus', corpus, '--lang', 'en', '--out', model, '--iterations', '1']);
  assert.equal(adapted.status, 0, adapted.stderr);
  assert.match(adapted.stdout, /adapted model written to/);
  const manifest = JSON.parse(readFileSync(join(model, MANIFEST), 'utf8')) as {
    id: string;
    language: string;
    corpus: { recordings: number; seconds: number };
    iterations: { logLikelihood: number }[];
    moved: number;
    extraPhones: unknown[];
  };
  assert.equal(manifest.language, 'eng');
  assert.equal(manifest.corpus.recordings, 30);
  assert.ok(manifest.corpus.seconds > 80, `${manifest.corpus.seconds} s`);
  assert.deepEqual(manifest.extraPhones, [], 'English keeps its phone set');
  // one re-estimation, and the corpus's paths fit the adapted model better
  assert.equal(manifest.iterations.length, 2);
  assert.ok(
    manifest.iterations[1]!.logLikelihood > manifest.iterations[0]!.logLikelihood,
    JSON.stringify(manifest.iterations),
  );
  assert.ok(manifest.moved > 1000, `${manifest.moved} Gaussians moved`);
  // another speaker aligned with it
  const other = timit(timitUids('dr3-madc0')[0]!);
  const text = join(work, 'other.txt');
  writeFileSync(text, other.text);
  const out = join(work, 'other.json');
  const aligned = cli(['align', other.wav, text, '--lang', 'en', '--model', model, '-o', out]);
  assert.equal(aligned.status, 0, aligned.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as {
    engine: { model: string };
    words: { start: number | null }[];
  };
  assert.equal(result.engine.model, manifest.id);
  assert.equal(result.words.filter((w) => w.start !== null).length, other.words.length);
  // a corpus of one short recording is refused, and leaves no folder
  const small = join(work, 'small');
  mkdirSync(join(small, 's'), { recursive: true });
  copyFileSync(other.wav, join(small, 's', 'a.wav'));
  writeFileSync(join(small, 's', 'a.lab'), other.text);
  const refused = cli(['adapt', '--corpus', small, '--lang', 'en', '--out', join(work, 'small-model')]);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /corpus_too_small: .*needs at least 60 s/);
  assert.ok(!existsSync(join(work, 'small-model')));
  assert.deepEqual(
    readdirSync(work).filter((f) => f.startsWith('.tazamun-adapt-')),
    [],
    'no intermediate models left behind',
  );
});

test('hand-placed words and phones are ground truth, and teach the model where people put word edges', async (t) => {
  const uids = [...timitUids('dr1-fvmh0'), ...timitUids('dr2-marc0'), ...timitUids('dr4-falr0')];
  const refs = uids.map((uid) => ({
    ...(JSON.parse(readFileSync(join(evalDir(), 'timit-dev', `${uid}.json`), 'utf8')) as RefUtt),
    uid,
  }));
  const free = refs.map((r) => ({ audio: join(evalDir(), 'timit-dev', r.audio), text: r.text }));
  const decoder = await loadDecoder('en');
  const fixed = refs.map((r) => ({
    audio: join(evalDir(), 'timit-dev', r.audio),
    text: r.text,
    fixedWords: fixedWordsOf(r, decoder),
    fixedAll: true,
  }));
  const work = tmp(t);
  const a = await adaptModel(free, { lang: 'en', out: join(work, 'free'), maxIterations: 1 });
  const b = await adaptModel(fixed, { lang: 'en', out: join(work, 'fixed'), maxIterations: 1 });
  assert.equal(a.manifest.corpus.groundTruthWords, 0);
  assert.equal(a.manifest.edges, undefined, 'no hand corrections, no edge correction');
  assert.equal(readEdgeCorrection(join(work, 'free')), null);
  const words = refs.reduce((n, r) => n + r.words.length, 0);
  assert.ok(
    b.manifest.corpus.groundTruthWords >= words * 0.9,
    `${b.manifest.corpus.groundTruthWords} of ${words}`,
  );
  // most words come with their phones, taken in the person's segments
  const withPhones = fixed.reduce((n, f) => n + f.fixedWords.filter((w) => w.phones).length, 0);
  assert.ok(withPhones >= words * 0.7, `${withPhones} of ${words} words with phones`);
  assert.ok(
    (b.manifest.corpus.groundTruthPhones ?? 0) >= withPhones * 2,
    `${b.manifest.corpus.groundTruthPhones} phones`,
  );
  // each hand-placed frame (words and the pauses between them) counts twice in the statistics, once
  // in the corpus's size
  const ratio = b.manifest.iterations[0]!.frames / a.manifest.iterations[0]!.frames;
  assert.ok(
    ratio > 1.6 && ratio < 2.3,
    `statistics' frames ${b.manifest.iterations[0]!.frames} against ${a.manifest.iterations[0]!.frames}`,
  );
  const size = b.manifest.corpus.frames / a.manifest.corpus.frames;
  assert.ok(
    size > 0.8 && size < 1.25,
    `corpus frames ${b.manifest.corpus.frames} against ${a.manifest.corpus.frames}`,
  );
  // the edge correction: learnt from every corrected word, kept in the folder, applied by align --model
  assert.equal(b.manifest.edges?.file, EDGES_FILE);
  const edges = readEdgeCorrection(join(work, 'fixed'))!;
  assert.ok(edges.words >= words * 0.95, `${edges.words} words`);
  for (const k of ['s:P', 's:J', 'e:P', 'e:J']) assert.ok(edges.entries[k]!.n > 20, k);
  const bare = join(work, 'bare');
  cpSync(join(work, 'fixed'), bare, { recursive: true });
  rmSync(join(bare, EDGES_FILE));
  const m = JSON.parse(readFileSync(join(bare, MANIFEST), 'utf8')) as Record<string, unknown>;
  delete m.edges;
  writeFileSync(join(bare, MANIFEST), JSON.stringify(m));
  const other = timit(timitUids('dr3-madc0')[0]!);
  const opts = { lang: 'en', recognition: false } as const;
  const plain = await align(other.wav, other.text, { ...opts, model: bare });
  const moved = await align(other.wav, other.text, { ...opts, model: join(work, 'fixed') });
  const { words: placed } = edgeWords(plain);
  const first = edgeKeys(placed, 0, edges.classes);
  assert.ok(
    Math.abs(moved.words[0]!.start! - (plain.words[0]!.start! + edgeShift(edges, first.start))) < 0.0011,
    `${first.start}: ${plain.words[0]!.start} -> ${moved.words[0]!.start} (shift ${edgeShift(edges, first.start)})`,
  );
  for (let i = 1; i < moved.words.length; i++)
    assert.ok(moved.words[i]!.start! >= moved.words[i - 1]!.end! - 1e-9);
});
