// Byte fixtures are written out here (not read from files) so the test shows what each encoding looks like.
import { describe, expect, it } from 'vitest';
import { decodeTextBytes } from './decode-text-file.ts';

const ARABIC = 'بسم الله الرحمن الرحيم. الحمد لله رب العالمين، مالك يوم الدين.\nقال الطالب: العلم نور.\n';

// Windows-1256 and ISO-8859-6 tables for the letters used above (WHATWG encoding standard indexes).
const CP1256: Record<string, number> = {
  ب: 0xc8,
  س: 0xd3,
  م: 0xe3,
  ا: 0xc7,
  ل: 0xe1,
  ه: 0xe5,
  ر: 0xd1,
  ح: 0xcd,
  ن: 0xe4,
  ي: 0xed,
  د: 0xcf,
  ع: 0xda,
  ك: 0xdf,
  و: 0xe6,
  ق: 0xde,
  ط: 0xd8,
  '،': 0xa1,
};
const ISO6: Record<string, number> = {
  ب: 0xc8,
  س: 0xd3,
  م: 0xe5,
  ا: 0xc7,
  ل: 0xe4,
  ه: 0xe7,
  ر: 0xd1,
  ح: 0xcd,
  ن: 0xe6,
  ي: 0xea,
  د: 0xcf,
  ع: 0xd9,
  ك: 0xe3,
  و: 0xe8,
  ق: 0xe2,
  ط: 0xd7,
  '،': 0xac,
};

function encodeWith(table: Record<string, number>, text: string): Uint8Array {
  return Uint8Array.from([...text].map((ch) => table[ch] ?? ch.charCodeAt(0)));
}

function utf16(text: string, littleEndian: boolean, bom: boolean): Uint8Array {
  const units = [...(bom ? '\uFEFF' : ''), ...text].map((c) => c.charCodeAt(0));
  const out = new Uint8Array(units.length * 2);
  const view = new DataView(out.buffer);
  units.forEach((u, i) => view.setUint16(i * 2, u, littleEndian));
  return out;
}

describe('transcript file decoding', () => {
  it('reads UTF-8 as is (a BOM dropped, CRLF to LF) and says nothing was converted', () => {
    const bytes = new TextEncoder().encode('\uFEFFسطر أول\r\nsecond line\r\n');
    expect(decodeTextBytes(bytes)).toEqual({
      text: 'سطر أول\nsecond line\n',
      encoding: 'utf-8',
      converted: false,
    });
  });

  it('detects Windows-1256 and ISO-8859-6 Arabic and converts them', () => {
    expect(decodeTextBytes(encodeWith(CP1256, ARABIC))).toEqual({
      text: ARABIC,
      encoding: 'windows-1256',
      converted: true,
    });
    expect(decodeTextBytes(encodeWith(ISO6, ARABIC))).toEqual({
      text: ARABIC,
      encoding: 'iso-8859-6',
      converted: true,
    });
  });

  it('reads UTF-16 with and without a byte-order mark', () => {
    expect(decodeTextBytes(utf16(ARABIC, true, true))).toEqual({
      text: ARABIC,
      encoding: 'utf-16le',
      converted: true,
    });
    expect(decodeTextBytes(utf16(ARABIC, false, true))).toEqual({
      text: ARABIC,
      encoding: 'utf-16be',
      converted: true,
    });
    expect(decodeTextBytes(utf16(ARABIC, true, false))).toEqual({
      text: ARABIC,
      encoding: 'utf-16le',
      converted: true,
    });
  });

  it('reads Latin-1 French as Windows-1252', () => {
    const bytes = Uint8Array.from([...'café crème, déjà vu à la française\n'].map((c) => c.charCodeAt(0)));
    expect(decodeTextBytes(bytes)).toEqual({
      text: 'café crème, déjà vu à la française\n',
      encoding: 'windows-1252',
      converted: true,
    });
  });
});
