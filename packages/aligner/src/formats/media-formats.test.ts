// The read-along page and the EPUB written from real results and a real recording, checked by readers
// written from the specifications (test-support/epub-check.ts) rather than by the writer's own code.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { makeResult } from '@tazamun/aligner/testing/result-fixtures';
import { checkEpub, readZipEntries } from '@tazamun/aligner/testing/epub-check';
import { evalDir } from '@tazamun/aligner/testing/eval-dir';
import { ffmpegPath, probeWithFfprobe } from '../audio/decode.ts';
import { clockValue, toEpub } from './epub.ts';
import { exportResult } from './export.ts';
import { portableMedia } from './export-media.ts';
import type { ExportMedia } from './export-media.ts';
import { toReadAlongHtml } from './read-along.ts';
import { zip } from './zip.ts';

const WAV = join(evalDir(), 'timit-dev', 'dr1-fvmh0_sa1.wav');
const dir = mkdtempSync(join(tmpdir(), 'tz-media-'));
// a tiny stand-in for the recording where its bytes do not matter (the XML and the times do)
const FAKE: ExportMedia = { bytes: new Uint8Array([1, 2, 3, 4]), mimeType: 'audio/mpeg', extension: 'mp3' };

const ADVERSARIAL = 'Say "hi" <script>alert(1)</script> a&b \u202Eevil\u202C ]]> --> مرحبا';

test('zip: entries in order, the stored one byte for byte, the deflated one inflates back', () => {
  const big = 'word '.repeat(1000);
  const z = zip([
    { name: 'mimetype', data: 'application/epub+zip', store: true },
    { name: 'a/b.txt', data: big },
    { name: 'ملف.txt', data: 'نص' },
  ]);
  const entries = readZipEntries(z);
  assert.deepEqual(
    entries.map((e) => [e.name, e.method, e.extraLength]),
    [
      ['mimetype', 0, 0],
      ['a/b.txt', 8, 0],
      ['ملف.txt', 8, 0],
    ],
  );
  assert.equal(entries[1]!.data.toString(), big);
  assert.equal(entries[2]!.data.toString(), 'نص');
  assert.throws(() => zip([{ name: '../x', data: '' }]), /not a relative path/);
  assert.throws(
    () =>
      zip([
        { name: 'x', data: '' },
        { name: 'x', data: '' },
      ]),
    /twice/,
  );
});

test('EPUB: mimetype first and stored, container, package, and a SMIL clip per word at its exact times', () => {
  const r = makeResult('The quick brown fox, said she.\n\nA new line here.', 'eng', { missing: [2] });
  // times as a revision has them: four decimals, not on a millisecond
  r.words[0]!.start = 0.2501;
  r.words[0]!.end = 0.6378;
  r.revision = { number: 3, author: 'user', created_at: '2026-01-02T03:04:05.000Z', hand_corrected: true };
  const bytes = toEpub(r, {
    media: FAKE,
    title: 'Fox & <friends>',
    identifier: 'urn:uuid:6dea1ad7-0000-4000-8000-000000000001',
    modified: new Date('2026-03-04T05:06:07.890Z'),
  });
  const epub = checkEpub(bytes);
  assert.equal(epub.title, 'Fox & <friends>');
  assert.equal(epub.language, 'en');
  assert.equal(epub.direction, 'ltr');
  assert.equal(epub.activeClass, '-epub-media-overlay-active');
  const aligned = r.words.filter((w) => w.status === 'aligned');
  assert.deepEqual(
    epub.pars.map((p) => [p.textId, p.clipBegin, p.clipEnd]),
    aligned.map((w) => [`w${w.index}`, w.start, w.end]),
  );
  assert.ok(epub.pars.every((p) => p.audioSrc === 'audio.mp3'));
  // the word not found is in the text but has no clip
  assert.match(epub.textContent, /brown/);
  assert.ok(!epub.pars.some((p) => p.textId === 'w2'));
  const opf = epub.entries.find((e) => e.name === epub.opfPath)!.data.toString();
  assert.match(opf, /<meta property="dcterms:modified">2026-03-04T05:06:07Z<\/meta>/);
  assert.match(opf, /Tazamun revision 3, corrected by hand/);
  const text = epub.entries.find((e) => e.name === 'EPUB/text.xhtml')!.data.toString();
  assert.equal((text.match(/<p>/g) ?? []).length, 2, 'a blank line starts a paragraph');
  // the audio is stored as given
  assert.deepEqual([...epub.entries.find((e) => e.name === 'EPUB/audio.mp3')!.data], [1, 2, 3, 4]);
});

test('EPUB: Arabic reads right to left; hostile text stays text', () => {
  const ar = checkEpub(toEpub(makeResult('ذَهَبَ الطَّالِبُ إِلَى الْمَكْتَبَةِ', 'ara'), { media: FAKE, title: 'درس' }));
  assert.equal(ar.language, 'ar');
  assert.equal(ar.direction, 'rtl');
  const opf = ar.entries.find((e) => e.name === ar.opfPath)!.data.toString();
  assert.match(opf, /page-progression-direction="rtl"/);
  const hostile = checkEpub(toEpub(makeResult(ADVERSARIAL, 'eng'), { media: FAKE, title: '<b>t</b>' }));
  assert.match(hostile.textContent, /<script>alert\(1\)<\/script>/, 'escaped, read back as text');
  assert.ok(!hostile.textContent.includes('\u202E'));
  assert.equal(clockValue(3723.4567), '1:02:03.457');
});

test('read-along page: one file, nothing fetched, each word with its times, escaped, right to left for Arabic', () => {
  const r = makeResult(ADVERSARIAL, 'eng', { missing: [1] });
  const html = toReadAlongHtml(r, { media: FAKE, title: '"Lesson" <1>', uiLanguage: 'fr' });
  assert.match(html, /^<!DOCTYPE html>/);
  assert.match(html, /<audio id="audio" controls preload="auto" src="data:audio\/mpeg;base64,AQIDBA=="/);
  // no resource from anywhere else: no http(s), no other src or href
  assert.doesNotMatch(html, /https?:\/\//);
  assert.doesNotMatch(html, /\bhref=/);
  assert.equal((html.match(/\bsrc=/g) ?? []).length, 1);
  assert.match(html, /<title>&quot;Lesson&quot; &lt;1&gt;<\/title>/);
  assert.doesNotMatch(html, /<script>alert/);
  assert.match(html, /Cliquez sur un mot/);
  const spans = [...html.matchAll(/<span class="w" data-b="([\d.]+)" data-e="([\d.]+)">([^<]*)<\/span>/g)];
  const aligned = r.words.filter((w) => w.status === 'aligned');
  assert.deepEqual(
    spans.map((m) => [Number(m[1]), Number(m[2])]),
    aligned.map((w) => [w.start, w.end]),
  );
  assert.match(html, /<span class="w missing">&quot;hi&quot;<\/span>/);
  const ar = toReadAlongHtml(makeResult('قال المعلم', 'ara'), {
    media: FAKE,
    title: 'درس',
    uiLanguage: 'ar',
  });
  assert.match(ar, /<p id="text" lang="ar" dir="rtl">/);
  assert.match(ar, /<html lang="ar" dir="rtl">/);
});

test('portable media: MP3 kept as it is, WAV encoded once to AAC in MP4; both formats through exportResult', async () => {
  const mp3 = join(dir, 'clip.mp3');
  execFileSync(ffmpegPath(), ['-v', 'error', '-y', '-i', WAV, '-c:a', 'libmp3lame', '-b:a', '64k', mp3]);
  const kept = await portableMedia(mp3);
  assert.equal(kept.mimeType, 'audio/mpeg');
  assert.deepEqual(Buffer.from(kept.bytes), readFileSync(mp3));
  const converted = await portableMedia(WAV);
  assert.deepEqual([converted.mimeType, converted.extension], ['audio/mp4', 'm4a']);
  const out = join(dir, 'back.m4a');
  writeFileSync(out, converted.bytes);
  const probe = await probeWithFfprobe(out);
  assert.equal(probe.codec, 'aac');
  assert.ok(Math.abs(probe.duration - 3.4176) < 0.1, `duration ${probe.duration}`);
  assert.ok(converted.bytes.length < readFileSync(WAV).length / 3);

  const r = makeResult('She had your dark suit', 'eng');
  const epub = exportResult(r, 'epub', { media: converted, title: 'sa1' });
  assert.deepEqual([epub.extension, epub.mimeType], ['epub', 'application/epub+zip']);
  assert.ok(checkEpub(epub.content as Uint8Array).entries.some((e) => e.name === 'EPUB/audio.m4a'));
  const page = exportResult(r, 'readalong', { media: converted, title: 'sa1' });
  assert.equal(page.extension, 'html');
  assert.match(page.content as string, /data:audio\/mp4;base64,/);
  assert.throws(() => exportResult(r, 'epub'), /embeds the recording/);
});
