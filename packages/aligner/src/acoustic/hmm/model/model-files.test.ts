// The model files as the published formats define them: the binary mdef of both npm models and Debian's,
// its text form written and read back, s3 parameter files written and read back (checksum included),
// the sendump and the dictionary index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveHmmModel } from '../models.ts';
import { loadAcousticModel, MAX_NEG_MIXW, TMAT_FORBIDDEN } from './acoustic-model.ts';
import { nearestPhone, phoneId, phoneSenones, readMdef, WPOS, writeTextMdef } from './mdef.ts';
import { openS3, readGaussians, writeS3 } from './s3file.ts';
import { PronunciationDictionary, readFillers } from './dictionary.ts';

const en = resolveHmmModel('en', 'full');
const fr = resolveHmmModel('fr');

test('the binary mdef: phones, triphones, senone sequences and the codebook of every senone', () => {
  const m = readMdef(readFileSync(join(en.hmm, 'mdef')), 'mdef');
  assert.equal(m.ciPhones.length, 42);
  assert.equal(m.ciPhones[m.sil], 'SIL');
  assert.equal(m.nEmitState, 3);
  assert.ok(m.filler[m.ciIndex.get('+NSN+')!] && !m.filler[m.ciIndex.get('AA')!]);
  const [aa, b, k] = ['AA', 'B', 'K'].map((p) => m.ciIndex.get(p)!) as [number, number, number];
  const tri = phoneId(m, aa, b, k, WPOS.internal);
  assert.ok(tri >= m.ciPhones.length, 'B-AA-K inside a word is a triphone of the model');
  assert.equal(m.phoneBase[tri], aa);
  for (const s of phoneSenones(m, tri)) assert.equal(m.senoneCi[s], aa);
  // every context-dependent phone of the file is in the table once, found again by its key
  const nPhone = m.phoneBase.length;
  assert.equal(m.triphones.size, nPhone - m.ciPhones.length);
  const seen = new Uint8Array(nPhone);
  for (const [key, pid] of m.triphones) {
    assert.equal(m.triphones.get(key), pid);
    seen[pid]!++;
  }
  assert.ok(seen.every((n, pid) => n === (pid < m.ciPhones.length ? 0 : 1)));
  assert.equal(m.triphones.lookup(WPOS.internal, aa, b, k), tri);
  assert.equal(m.triphones.lookup(WPOS.internal, aa, b, m.ciPhones.length), -1, 'no such phone: none');
  // a context the model never saw backs off, at worst to the CI phone
  const nsn = m.ciIndex.get('+NSN+')!;
  assert.ok(nearestPhone(m, aa, nsn, nsn, WPOS.single) >= 0);
  for (const model of [en, fr]) {
    const mm = readMdef(readFileSync(join(model.hmm, 'mdef')), 'mdef');
    assert.ok(
      mm.senoneCi.every((c) => c >= 0),
      `${model.id}: every senone belongs to a codebook`,
    );
  }
});

test('a model definition whose triphones fall outside its phones is refused, not read', () => {
  const bytes = Buffer.from(readFileSync(join(en.hmm, 'mdef')));
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // the context tree starts after the header, ten counts and the phone names (padded to 4 bytes)
  const namesStart = 12 + v.getInt32(8, true) + 40;
  let p = namesStart;
  for (let i = 0; i < v.getInt32(12 + v.getInt32(8, true), true); i++) p = bytes.indexOf(0, p) + 1;
  const tree = namesStart + ((p - namesStart + 3) & ~3);
  // down three levels (a node: context, number of children, first child), each time through the first
  // node that has children: a leaf, whose `down` is a phone id
  let node = 0;
  for (let level = 0; level < 3; level++) {
    while (v.getInt16(tree + node * 8 + 2, true) === 0) node++;
    node = v.getInt32(tree + node * 8 + 4, true);
  }
  v.setInt32(tree + node * 8 + 4, 1 << 30, true);
  assert.throws(
    () => readMdef(bytes, 'mdef'),
    /mdef cannot be read: a triphone of the context tree is out of range/,
  );
  // the text form: a phone count no model has (the table is sized by its square)
  const text = writeTextMdef(readMdef(readFileSync(join(fr.hmm, 'mdef')), 'mdef')).replace(
    /^\d+ n_base$/m,
    '100000 n_base',
  );
  assert.throws(() => readMdef(Buffer.from(text, 'latin1'), 'mdef.txt'), /implausible counts/);
});

test('a model definition written as text reads back the same', () => {
  const m = readMdef(readFileSync(join(fr.hmm, 'mdef')), 'mdef');
  const again = readMdef(Buffer.from(writeTextMdef(m), 'latin1'), 'mdef.txt');
  assert.deepEqual(again.ciPhones, m.ciPhones);
  assert.deepEqual(again.filler, m.filler);
  assert.equal(again.triphones.size, m.triphones.size);
  for (const [key, pid] of m.triphones) {
    const other = again.triphones.get(key)!;
    assert.deepEqual(Array.from(phoneSenones(again, other)), Array.from(phoneSenones(m, pid)));
    assert.equal(again.phoneTmat[other], m.phoneTmat[pid]);
  }
});

test('an s3 parameter file written here is read back with its header, dimensions and checksum', () => {
  const data = Float32Array.from({ length: 2 * 1 * 3 * 4 }, (_, i) => i / 7);
  const bytes = writeS3([2, 1, 3, 4, data.length], data);
  const f = openS3(bytes, 'test');
  assert.equal(f.header.get('chksum0'), 'yes');
  const g = readGaussians(bytes, 'test');
  assert.deepEqual([g.nCodebooks, g.nStreams, g.nDensities, g.streamLengths], [2, 1, 3, [4]]);
  assert.deepEqual(Array.from(g.data), Array.from(data));
});

test('the acoustic models load: PTM codebooks, quantised weights within the floors, transitions', () => {
  for (const spec of [en, fr, resolveHmmModel('en', 'narrow')]) {
    const m = loadAcousticModel({ dir: spec.hmm, featParams: spec.featParams });
    assert.equal(m.nCodebooks, m.mdef.ciPhones.length);
    assert.equal(m.mixw.length, m.mdef.nSenones * m.nStreams * m.nDensities);
    assert.ok(m.mixw.every((q) => q <= MAX_NEG_MIXW));
    // every emitting state can stay, and some state of every matrix can leave
    for (let t = 0; t < m.mdef.nTmat; t++) {
      for (let j = 0; j < 3; j++) assert.ok(m.tmat[(t * 3 + j) * 4 + j]! < TMAT_FORBIDDEN);
      assert.ok(m.tmat[(t * 3 + 2) * 4 + 3]! < TMAT_FORBIDDEN);
    }
    assert.equal(m.frontEnd.feat, '1s_c_d_dd');
  }
});

test('the dictionary index finds words, their alternatives, UTF-8 words, and nothing for a prefix', () => {
  const d = new PronunciationDictionary(readFileSync(en.dict));
  assert.deepEqual(d.lookup('a'), [['AH'], ['EY']]);
  assert.ok(d.lookup('greasy').length >= 1);
  assert.deepEqual(d.lookup('gre'), []);
  assert.deepEqual(d.lookup('zzzzqx'), []);
  const f = new PronunciationDictionary(readFileSync(fr.dict));
  assert.ok(f.lookup('été').length >= 1);
  assert.deepEqual(readFillers('<s> SIL\n</s> SIL\n<sil> SIL\n[NOISE] +NSN+\n'), [
    { word: '<sil>', phone: 'SIL' },
    { word: '[NOISE]', phone: '+NSN+' },
  ]);
});
