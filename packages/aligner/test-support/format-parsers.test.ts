// The strict readers must reject what a broken writer could produce, or the round-trip tests prove nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeResult } from './result-fixtures.ts';
import { parseCsv, parseSrt, parseTextGrid, parseVtt, parseXml } from './format-parsers.ts';
import { toTextGrid } from '../src/formats/textgrid.ts';

test('TextGrid reader rejects gaps, overlaps, wrong counts, bad quoting and trailing content', () => {
  const good = toTextGrid(makeResult('a b', 'eng'));
  assert.doesNotThrow(() => parseTextGrid(good));
  const gap = good.replace('xmax = 0.65 \n            text = "a"', 'xmax = 0.6 \n            text = "a"');
  assert.notEqual(gap, good);
  assert.throws(() => parseTextGrid(gap), /gap or overlap/);
  assert.throws(() => parseTextGrid(good.replace('size = 2 ', 'size = 3 ')), /unexpected end|expected/);
  assert.throws(() => parseTextGrid(good.replace('text = "a"', 'text = "a"b"')), /expected text/);
  assert.throws(() => parseTextGrid(`${good}junk\n`), /trailing/);
  assert.throws(() => parseTextGrid(good.replace('File type = "ooTextFile"', 'File type = "ooBinaryFile"')));
  assert.throws(() => parseTextGrid(`\uFEFF${good}`), /BOM/);
});

test('WebVTT reader rejects overlap, raw markup, bad header and stray ampersands', () => {
  const cue = (id: number, a: string, b: string, text: string): string => `${id}\n${a} --> ${b}\n${text}`;
  const ok = `WEBVTT\n\n${cue(1, '00:00:00.000', '00:00:01.000', 'a')}\n\n${cue(2, '00:00:01.000', '00:00:02.000', 'b')}\n`;
  assert.equal(parseVtt(ok).length, 2);
  assert.throws(
    () => parseVtt(ok.replace('00:00:01.000 --> 00:00:02.000', '00:00:00.500 --> 00:00:02.000')),
    /overlaps/,
  );
  assert.throws(() => parseVtt(ok.replace('\na\n', '\n<b>a\n')), /unescaped/);
  assert.throws(() => parseVtt(ok.replace('\na\n', '\na & b\n')), /unescaped &/);
  assert.throws(() => parseVtt(ok.replace('WEBVTT', 'WEBVTX')), /header/);
  assert.throws(() => parseVtt(ok.replace('\na\n', '\n<00:00:05.000>a\n')), /outside/);
});

test('SRT reader rejects LF line ends, misnumbering and markup', () => {
  const ok = '1\r\n00:00:00,000 --> 00:00:01,000\r\na\r\n\r\n2\r\n00:00:01,000 --> 00:00:02,000\r\nb\r\n';
  assert.equal(parseSrt(ok).length, 2);
  assert.throws(() => parseSrt(ok.replace(/\r\n/g, '\n')), /CRLF/);
  assert.throws(() => parseSrt(ok.replace('2\r\n', '3\r\n')), /numbered/);
  assert.throws(() => parseSrt(ok.replace('\r\na\r\n', '\r\n<i>a</i>\r\n')), /markup/);
});

test('CSV reader rejects stray quotes, bare LF and ragged rows', () => {
  assert.deepEqual(parseCsv('a,"b,""c"""\r\n1,2\r\n', ','), [
    ['a', 'b,"c"'],
    ['1', '2'],
  ]);
  assert.throws(() => parseCsv('a,b"c\r\n', ','), /quote inside/);
  assert.throws(() => parseCsv('a,b\n', ','), /bare LF/);
  assert.throws(() => parseCsv('a,b\r\n1\r\n', ','), /ragged/);
  assert.throws(() => parseCsv('a,"b\r\n', ','), /unterminated/);
});

test('XML checker rejects mismatched tags, raw < and &, and invalid characters', () => {
  const decl = '<?xml version="1.0" encoding="UTF-8"?>\n';
  assert.equal(parseXml(`${decl}<A x="1"><B>t &amp; u</B><C/></A>`).children.length, 2);
  assert.throws(() => parseXml(`${decl}<A><B></A></B>`), /mismatched/);
  assert.throws(() => parseXml(`${decl}<A>a & b</A>`), /bad entity/);
  assert.throws(() => parseXml(`${decl}<A>a < b</A>`), /malformed/);
  assert.throws(() => parseXml(`${decl}<A>\u0001</A>`), /invalid XML character/);
  assert.throws(() => parseXml(`${decl}<A x="1" x="2"/>`), /duplicate/);
  assert.throws(() => parseXml(`${decl}<A/><B/>`), /two root/);
});
