import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { protectFormula, toCsv, unprotectFormula } from './csv.ts';
import { toEaf } from './eaf.ts';
import { EXPORT_FORMATS, exportResult, isExportFormat } from './export.ts';
import { parseAlignmentJson, parseExportJson, toPlatformJson, validateAlignmentResult } from './json.ts';
import { cueWords, toSrt, toWebVtt } from './subtitles.ts';
import { makeResult } from '@tazamun/aligner/testing/result-fixtures';
import {
  parseCsv,
  parseSrt,
  parseTextGrid,
  parseVtt,
  parseXml,
} from '@tazamun/aligner/testing/format-parsers';
import type { XmlElement } from '@tazamun/aligner/testing/format-parsers';
import { toTextGrid } from './textgrid.ts';

const ADVERSARIAL =
  'Say "hi" <script>alert(1)</script> \u202Eevil\u202C =SUM(A1) +1 -2 @me a&b --> WEBVTT مرحبا بِكُم ١٢';

/** The adversarial result, plus words edited the way a user could (line breaks, blank lines). */
function adversarial(missing: number[] = []): AlignmentResult {
  const r = makeResult(ADVERSARIAL, 'eng', { missing });
  const w0 = r.words[0];
  if (w0) w0.word = 'line1\nline2\r\n\r\n99\n00:00:00.000 --> 00:00:09.000\tx';
  return r;
}

function clone<T>(x: T): T {
  return JSON.parse(JSON.stringify(x)) as T;
}

// ---------------------------------------------------------------- JSON

test('JSON: written results validate and round-trip exactly', () => {
  const r = makeResult('ذَهَبَ الطَّالِبُ إِلَى الْمَكْتَبَةِ', 'ara', { missing: [2] });
  const json = toPlatformJson(r);
  assert.deepEqual(parseAlignmentJson(json), r);
  assert.equal(JSON.parse(json).schema_version, 1);
  assert.deepEqual(JSON.parse(toPlatformJson(r, { pretty: false })), r);
});

test('JSON: export variants (no metrics, pretty off, embedded audio) read back', () => {
  const r = makeResult('a b', 'eng');
  const bytes = new Uint8Array([0, 1, 2, 250, 255]);
  const text = toPlatformJson(r, {
    includeMetrics: false,
    pretty: false,
    audio: { bytes, mimeType: 'audio/wav' },
  });
  assert.ok(!text.includes('\n  '));
  const { result, audio } = parseExportJson(text);
  assert.equal(result.metrics, undefined);
  assert.deepEqual(result.words, r.words);
  assert.deepEqual(audio, { mimeType: 'audio/wav', bytes });
  assert.throws(() => parseAlignmentJson(text), /metrics/);
  assert.throws(() => parseExportJson(text.replace('"words"', '"wordz"')), /invalid alignment export/);
  assert.throws(() => parseExportJson('{"audio_data":{"mime_type":"x","base64":"%%"}}'), /audio_data/);
});

test('JSON: the validator reports every problem with its path', () => {
  const bad = clone(makeResult('a b', 'eng')) as unknown as Record<string, unknown>;
  (bad.words as Record<string, unknown>[])[0]!.status = 'maybe';
  (bad.metrics as Record<string, unknown>).coverage = 2;
  delete bad.language;
  const v = validateAlignmentResult(bad);
  assert.equal(v.ok, false);
  if (!v.ok) {
    assert.ok(
      v.errors.some((e) => e.startsWith('words.0.status')),
      v.errors.join('\n'),
    );
    assert.ok(v.errors.some((e) => e.startsWith('metrics.coverage')));
    assert.ok(v.errors.some((e) => e.startsWith('language')));
  }
  assert.throws(() => toPlatformJson(bad as unknown as AlignmentResult), /invalid alignment result/);
  assert.throws(() => parseAlignmentJson('{'), /not JSON/);
  const v2 = validateAlignmentResult({ ...makeResult('a', 'eng'), schema_version: 2 });
  assert.equal(v2.ok, false);
  if (!v2.ok) assert.match(v2.errors[0] ?? '', /schema_version: 2 is not supported/);
  assert.equal(validateAlignmentResult(null).ok, false);
});

// ---------------------------------------------------------------- TextGrid

test('TextGrid: strict round trip, contiguous tiers, words and phones as written', () => {
  const r = makeResult('She had your dark suit', 'eng');
  const tg = parseTextGrid(toTextGrid(r));
  assert.equal(tg.xmin, 0);
  assert.equal(tg.xmax, r.audio.duration);
  assert.equal(tg.tiers.length, 2);
  const [words, phones] = tg.tiers;
  assert.ok(words && words.class === 'IntervalTier' && words.name === 'words');
  assert.ok(phones && phones.class === 'IntervalTier' && phones.name === 'phones');
  const labelled = words.intervals.filter((iv) => iv.text !== '');
  assert.deepEqual(
    labelled.map((iv) => iv.text),
    ['She', 'had', 'your', 'dark', 'suit'],
  );
  labelled.forEach((iv, i) => {
    assert.equal(iv.xmin, r.words[i]?.start);
    assert.equal(iv.xmax, r.words[i]?.end);
  });
  assert.equal(words.intervals[0]?.text, ''); // leading silence is an empty interval
  assert.deepEqual(
    phones.intervals.filter((iv) => iv.text).map((iv) => iv.text),
    Array(5).fill(['ɑ', 'b']).flat(),
  );
});

test('TextGrid: options (tier names, no phone tier, model phone labels)', () => {
  const r = makeResult('a b', 'eng');
  const tg = parseTextGrid(toTextGrid(r, { wordTierName: 'Wörter "1"', phones: false }));
  assert.equal(tg.tiers.length, 1);
  assert.equal(tg.tiers[0]?.name, 'Wörter "1"');
  const tg2 = parseTextGrid(toTextGrid(r, { phoneLabel: 'model', phoneTierName: 'segments' }));
  const t = tg2.tiers[1];
  assert.ok(t?.class === 'IntervalTier' && t.name === 'segments');
  assert.deepEqual(
    t.intervals.filter((iv) => iv.text).map((iv) => iv.text),
    ['AA', 'B', 'AA', 'B'],
  );
});

test('TextGrid: not_found words are points of a separate tier, never intervals', () => {
  const r = makeResult('one two three four', 'eng', { missing: [0, 2] });
  const tg = parseTextGrid(toTextGrid(r));
  assert.equal(tg.tiers.length, 3);
  const [words, , nf] = tg.tiers;
  assert.ok(words?.class === 'IntervalTier');
  assert.deepEqual(
    words.intervals.filter((iv) => iv.text).map((iv) => iv.text),
    ['two', 'four'],
  );
  assert.ok(nf?.class === 'TextTier' && nf.name === 'not found');
  assert.deepEqual(nf.points, [
    { number: 0, mark: 'one' },
    { number: r.words[1]?.end, mark: 'three' },
  ]);
  assert.equal(parseTextGrid(toTextGrid(r, { notFoundTier: false })).tiers.length, 2);
});

test('TextGrid: adversarial labels (quotes doubled, line breaks flattened, bidi overrides removed)', () => {
  const r = adversarial();
  const tg = parseTextGrid(toTextGrid(r));
  const words = tg.tiers[0];
  assert.ok(words?.class === 'IntervalTier');
  const texts = words.intervals.filter((iv) => iv.text).map((iv) => iv.text);
  assert.equal(texts.length, r.words.length);
  assert.ok(texts.includes('"hi"'));
  assert.ok(texts.includes('<script>alert(1)</script>'));
  assert.ok(texts.includes('evil'));
  assert.ok(texts.includes('مرحبا'));
  assert.ok(!texts.some((t) => /[\n\r\u202E]/.test(t)));
});

test('TextGrid: overlapping and out-of-range times still give a valid contiguous grid', () => {
  const r = makeResult('a b c', 'eng');
  const [a, b, c] = r.words;
  if (!a || !b || !c) throw new Error('fixture');
  b.start = (a.end ?? 0) - 0.1; // overlaps a
  c.start = 0.123456789;
  c.end = 0.123456789; // zero duration after clamping: dropped
  a.phones[0]!.end = 99; // beyond the audio
  const tg = parseTextGrid(toTextGrid(r));
  for (const t of tg.tiers) assert.equal(t.xmax, tg.xmax);
  const w = tg.tiers[0];
  assert.ok(w?.class === 'IntervalTier');
  assert.deepEqual(
    w.intervals.filter((iv) => iv.text).map((iv) => iv.text),
    ['a', 'b'],
  );
});

test('TextGrid: an empty result is a valid grid with one empty interval', () => {
  const r = makeResult('', 'eng');
  r.audio.duration = 0;
  const tg = parseTextGrid(toTextGrid(r));
  assert.equal(tg.tiers.length, 1);
  const t = tg.tiers[0];
  assert.ok(t?.class === 'IntervalTier');
  assert.deepEqual(
    t.intervals.map((iv) => iv.text),
    [''],
  );
});

// ---------------------------------------------------------------- WebVTT and SRT

test('WebVTT: cues parse strictly, never overlap, hold the words in order', () => {
  const r = makeResult('one two three four five six seven eight nine ten', 'eng');
  const cues = parseVtt(toWebVtt(r, { wordsPerLine: 3, linesPerCue: 1 }));
  assert.deepEqual(
    cues.map((c) => c.lines.join(' ')),
    ['one two three', 'four five six', 'seven eight nine', 'ten'],
  );
  assert.equal(cues[0]?.start, 250);
  const two = parseVtt(toWebVtt(r, { wordsPerLine: 3, linesPerCue: 2 }));
  assert.deepEqual(two[0]?.lines, ['one two three', 'four five six']);
});

test('WebVTT: karaoke timestamps inside their cue, one per word after the first', () => {
  const r = makeResult('one two three', 'eng');
  const cues = parseVtt(toWebVtt(r, { timestamps: true }));
  assert.equal(cues.length, 1);
  assert.equal(cues[0]?.lines[0], 'one <00:00:00.750>two <00:00:01.250>three');
});

test('WebVTT: minimum duration lengthens short cues but never into the next one', () => {
  const r = makeResult('a b c d', 'eng', { step: 0.1 });
  const cues = parseVtt(toWebVtt(r, { wordsPerLine: 1, linesPerCue: 1, minSegmentDuration: 2 }));
  assert.equal(cues.length, 4);
  for (let i = 0; i + 1 < cues.length; i++) assert.equal(cues[i]?.end, cues[i + 1]?.start);
  // the last cue is lengthened too, as far as the end of the audio (issue 27: never past it)
  assert.equal(cues[3]?.end, Math.round(r.audio.duration * 1000));
  assert.ok((cues[3]?.end ?? 0) - (cues[3]?.start ?? 0) < 2000);
});

test('WebVTT: a long pause or a segment boundary ends a cue', () => {
  const r = makeResult('a b c d', 'eng');
  r.words[2]!.start = 10;
  r.words[2]!.end = 10.5;
  r.words[3]!.start = 10.6;
  r.words[3]!.end = 11;
  r.audio.duration = 12;
  assert.deepEqual(cueWords(r), [
    ['a', 'b'],
    ['c', 'd'],
  ]);
  const s = makeResult('a b c d', 'eng');
  s.segments = [
    { index: 0, text: 'a b', start: 0, end: 1, word_start: 0, word_end: 2, confidence: 1 },
    { index: 1, text: 'c d', start: 1, end: 2, word_start: 2, word_end: 4, confidence: 1 },
  ];
  assert.deepEqual(cueWords(s), [
    ['a', 'b'],
    ['c', 'd'],
  ]);
});

test('WebVTT: adversarial text is escaped and cannot break out of its cue', () => {
  const r = adversarial([4]);
  const vtt = toWebVtt(r, { timestamps: true, wordsPerLine: 4 });
  const cues = parseVtt(vtt);
  const all = cues.flatMap((c) => c.lines).join(' ');
  assert.ok(all.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  assert.ok(all.includes('a&amp;b'));
  assert.ok(all.includes('--&gt;'));
  assert.ok(!/[\u202E\u202C]/.test(vtt));
  assert.ok(all.includes('مرحبا'));
  // the not_found word stays in the text (after the word before it) without a timestamp
  assert.ok(/evil [^<]*=SUM\(A1\)/.test(all) || all.includes('evil =SUM(A1)'));
  // the edited first word's line breaks became spaces: one cue per group, no injected cue
  assert.ok(cues.every((c) => /^\d+$/.test(c.id)));
  assert.equal(cues[0]?.id, '1');
  assert.ok(!vtt.includes('\n99\n'));
});

test('WebVTT: right-to-left text keeps its logical order', () => {
  const r = makeResult('ذَهَبَ الطَّالِبُ إِلَى الْمَكْتَبَةِ', 'ara');
  const cues = parseVtt(toWebVtt(r));
  assert.equal(cues[0]?.lines[0], 'ذَهَبَ الطَّالِبُ إِلَى الْمَكْتَبَةِ');
});

test('SRT: strict parse, CRLF, numbered cues, timestamps = one cue per word', () => {
  const r = makeResult('one two three four', 'eng');
  const grouped = parseSrt(toSrt(r, { wordsPerLine: 2 }));
  assert.deepEqual(
    grouped.map((c) => c.lines),
    [['one two', 'three four']],
  );
  const perWord = parseSrt(toSrt(r, { timestamps: true, minSegmentDuration: 0 }));
  assert.deepEqual(
    perWord.map((c) => [c.lines[0], c.start, c.end]),
    [
      ['one', 250, 650],
      ['two', 750, 1150],
      ['three', 1250, 1650],
      ['four', 1750, 2150],
    ],
  );
  // with the default 1 s minimum, a word's cue lasts until the next word starts
  const held = parseSrt(toSrt(r, { timestamps: true }));
  assert.deepEqual(
    held.map((c) => [c.start, c.end]),
    [
      [250, 750],
      [750, 1250],
      [1250, 1750],
      [1750, 2750],
    ],
  );
});

test('SRT: adversarial text has no markup characters and cannot inject cues', () => {
  const r = adversarial([2]);
  const srt = toSrt(r, { wordsPerLine: 3 });
  const cues = parseSrt(srt);
  const all = cues.flatMap((c) => c.lines).join(' ');
  assert.ok(all.includes('‹script›alert(1)‹/script›'));
  assert.ok(!/[\u202E\u202C]/.test(srt));
  assert.deepEqual(
    cues.map((c) => c.id),
    cues.map((_, i) => String(i + 1)),
  );
  const perWord = parseSrt(toSrt(r, { timestamps: true }));
  assert.equal(perWord.length, r.words.filter((w) => w.status === 'aligned').length);
  assert.equal(toSrt(makeResult('', 'eng')), '');
});

// ---------------------------------------------------------------- CSV

test('CSV: RFC 4180 round trip with each separator, headers on and off', () => {
  const r = adversarial([3]);
  for (const sep of [',', ';', '\t'] as const) {
    const rows = parseCsv(toCsv(r, { separator: sep }), sep);
    assert.deepEqual(rows[0], [
      'index',
      'word',
      'normalized',
      'start',
      'end',
      'duration',
      'confidence',
      'status',
      'char_start',
      'char_end',
    ]);
    assert.equal(rows.length, r.words.length + 1);
    r.words.forEach((w, i) => {
      const row = rows[i + 1] ?? [];
      assert.equal(row[0], String(w.index));
      const expected = w.word.replace(/[\u202A-\u202E]/g, '');
      assert.equal(row[1], /^[=+\-@\t\r]/.test(expected) ? `'${expected}` : expected);
      assert.equal(row[3], w.start === null ? '' : String(w.start));
      assert.equal(row[7], w.status);
    });
    const noHeader = parseCsv(toCsv(r, { separator: sep, headers: false }), sep);
    assert.equal(noHeader.length, r.words.length);
  }
});

test('CSV: formula injection is neutralised in text cells, numbers stay numbers', () => {
  const rows = parseCsv(toCsv(adversarial()), ',');
  const words = rows.slice(1).map((r) => r[1]);
  assert.ok(words.includes("'=SUM(A1)"));
  assert.ok(words.includes("'+1"));
  assert.ok(words.includes("'-2"));
  assert.ok(words.includes("'@me"));
  assert.ok(words.includes('"hi"'));
  for (const r of rows.slice(1)) assert.match(r[3] ?? '', /^(\d+(\.\d+)?)?$/);
});

test('CSV: the formula guard undone gives the text back, and leaves other text alone', () => {
  for (const s of ['=SUM(A1)', '+1', '-2', '@me', '\tx', 'plain', "it's", ''])
    assert.equal(unprotectFormula(protectFormula(s)), s, JSON.stringify(s));
  assert.equal(unprotectFormula("'plain"), "'plain");
});

test('CSV: phone level', () => {
  const r = makeResult('a b', 'eng');
  const rows = parseCsv(toCsv(r, { level: 'phones', separator: ';' }), ';');
  assert.deepEqual(rows[0], [
    'word_index',
    'word',
    'phone',
    'model_phone',
    'start',
    'end',
    'duration',
    'confidence',
  ]);
  assert.equal(rows.length, 5);
  // the IPA first, the acoustic model's label beside it
  assert.deepEqual(rows[1]?.slice(0, 5), ['0', 'a', 'ɑ', 'AA', '0.25']);
  assert.equal(rows[2]?.[7], ''); // no confidence given
});

// ---------------------------------------------------------------- EAF

function child(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c) => c.name === name);
}

test('EAF: well-formed XML with time slots in ms, word and phone tiers of alignable annotations', () => {
  const r = makeResult('She had your', 'eng', { missing: [1] });
  const doc = parseXml(toEaf(r, { date: '2026-01-01T00:00:00Z', mediaUrl: 'file:///a b.wav' }));
  assert.equal(doc.name, 'ANNOTATION_DOCUMENT');
  assert.equal(doc.attrs.FORMAT, '3.0');
  const header = child(doc, 'HEADER')[0];
  assert.equal(header?.attrs.TIME_UNITS, 'milliseconds');
  assert.equal(child(header as XmlElement, 'MEDIA_DESCRIPTOR')[0]?.attrs.MEDIA_URL, 'file:///a b.wav');
  const relative = parseXml(toEaf(r, { mediaUrl: 'sa1.wav', relativeMediaUrl: './sa1.wav' }));
  assert.deepEqual(child(child(relative, 'HEADER')[0]!, 'MEDIA_DESCRIPTOR')[0]?.attrs, {
    MEDIA_URL: 'sa1.wav',
    MIME_TYPE: 'audio/x-wav',
    RELATIVE_MEDIA_URL: './sa1.wav',
  });
  const slots = new Map(
    child(child(doc, 'TIME_ORDER')[0] as XmlElement, 'TIME_SLOT').map((s) => [
      s.attrs.TIME_SLOT_ID,
      Number(s.attrs.TIME_VALUE),
    ]),
  );
  const tiers = child(doc, 'TIER');
  assert.deepEqual(
    tiers.map((t) => t.attrs.TIER_ID),
    ['words', 'phones'],
  );
  const types = new Set(child(doc, 'LINGUISTIC_TYPE').map((t) => t.attrs.LINGUISTIC_TYPE_ID));
  for (const t of tiers) assert.ok(types.has(t.attrs.LINGUISTIC_TYPE_REF));
  const words = child(tiers[0] as XmlElement, 'ANNOTATION').map((a) => {
    const al = child(a, 'ALIGNABLE_ANNOTATION')[0] as XmlElement;
    return {
      value: child(al, 'ANNOTATION_VALUE')[0]?.text,
      start: slots.get(al.attrs.TIME_SLOT_REF1),
      end: slots.get(al.attrs.TIME_SLOT_REF2),
    };
  });
  assert.deepEqual(words, [
    { value: 'She', start: 250, end: 650 },
    { value: 'your', start: 750, end: 1150 },
  ]);
  assert.equal(child(tiers[1] as XmlElement, 'ANNOTATION').length, 4);
  const ids = [...doc.children.flatMap((c) => c.children)].length;
  assert.ok(ids > 0);
});

test('EAF: adversarial text and XML-invalid characters are escaped or dropped', () => {
  const r = adversarial();
  r.words[1]!.word = 'bad\u0000\u0001\uFFFE\uD800char & <tag attr="x"> \'';
  const xml = toEaf(r, { date: '2026-01-01T00:00:00Z', author: '"><evil/>' });
  const doc = parseXml(xml);
  assert.equal(doc.attrs.AUTHOR, '"><evil/>');
  const values = child(child(doc, 'TIER')[0] as XmlElement, 'ANNOTATION').map(
    (a) => child(child(a, 'ALIGNABLE_ANNOTATION')[0] as XmlElement, 'ANNOTATION_VALUE')[0]?.text,
  );
  assert.ok(values.includes('<script>alert(1)</script>'));
  assert.ok(values.includes('badchar & <tag attr="x"> \''));
  assert.ok(values.includes('evil'));
  assert.ok(values.includes('a&b'));
  assert.ok(values.includes('مرحبا'));
});

test('EAF: an empty result is still a valid document', () => {
  const doc = parseXml(toEaf(makeResult('', 'eng'), { date: 'x' }));
  assert.equal(child(doc, 'TIER').length, 2);
});

// ---------------------------------------------------------------- dispatcher

test('exportResult: every format, with extension and MIME type', () => {
  const r = makeResult('a b', 'eng');
  const media = { bytes: new Uint8Array([1, 2, 3]), mimeType: 'audio/mpeg', extension: 'mp3' };
  for (const f of EXPORT_FORMATS) {
    assert.ok(isExportFormat(f));
    const out = exportResult(r, f, { eaf: { date: '2026-01-01' }, media });
    assert.ok(out.content.length > 0, f);
    // text formats say their charset; the EPUB is a zip
    assert.ok(out.extension && (f === 'epub' || out.mimeType.includes('charset=utf-8')), f);
    assert.equal(typeof out.content === 'string', f !== 'epub', f);
  }
  assert.equal(exportResult(r, 'csv', { csv: { separator: '\t' } }).extension, 'tsv');
  assert.equal(isExportFormat('docx'), false);
});

test('EAF: the verdict and its reasons are header properties; phone labels IPA by default, model on request', () => {
  const r = makeResult('a b', 'eng');
  r.quality = {
    verdict: 'mismatch',
    reasons: [{ code: 'transcript_mismatch', message: 'the transcript does not fit <x>', value: 0.9 }],
  };
  const eaf = toEaf(r);
  assert.match(eaf, /<PROPERTY NAME="tazamun:verdict">mismatch<\/PROPERTY>/);
  assert.match(eaf, /<PROPERTY NAME="tazamun:reason">the transcript does not fit &lt;x&gt;<\/PROPERTY>/);
  assert.match(eaf, /<ANNOTATION_VALUE>ɑ<\/ANNOTATION_VALUE>/);
  assert.doesNotMatch(eaf, /<ANNOTATION_VALUE>AA<\/ANNOTATION_VALUE>/);
  assert.match(toEaf(r, { phoneLabel: 'model' }), /<ANNOTATION_VALUE>AA<\/ANNOTATION_VALUE>/);
});

test('no cue runs past the end of the audio, however long the minimum cue (issue 27)', () => {
  const r = makeResult('she had your dark suit');
  const endMs = Math.round(r.audio.duration * 1000);
  const ends = (text: string, sep: ',' | '.') =>
    [...text.matchAll(new RegExp(`--> (\\d\\d):(\\d\\d):(\\d\\d)\\${sep}(\\d{3})`, 'g'))].map(
      (m) => ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + Number(m[4]),
    );
  for (const o of [
    { timestamps: true, minSegmentDuration: 2 },
    { timestamps: false, minSegmentDuration: 5, wordsPerLine: 1, linesPerCue: 1 },
  ]) {
    const srt = ends(toSrt(r, o), ',');
    const vtt = ends(toWebVtt(r, o), '.');
    assert.ok(srt.length >= 5 || (!o.timestamps && srt.length > 0), JSON.stringify(o));
    assert.ok(Math.max(...srt) <= endMs, `SRT ${JSON.stringify(o)}: ${Math.max(...srt)} > ${endMs}`);
    assert.ok(Math.max(...vtt) <= endMs, `VTT ${JSON.stringify(o)}: ${Math.max(...vtt)} > ${endMs}`);
  }
});
