// Transcript files as people have them: UTF-8 mostly, but also Windows-1256 or ISO-8859-6 (Arabic
// files saved by older Windows and Mac tools) and UTF-16 (Notepad's "Unicode"). The bytes are decoded
// in the browser and sent as UTF-8 text, so a legacy file is never shown, or aligned, as mojibake.
import chardet from 'chardet';

export interface DecodedText {
  text: string;
  /** WHATWG encoding label the bytes were read with, e.g. "utf-8", "windows-1256". */
  encoding: string;
  /** True when the file was not UTF-8 and was converted (the interface says so). */
  converted: boolean;
}

// Encodings chardet may name that TextDecoder reads; anything else is not trusted.
const DECODABLE: Record<string, string> = {
  'UTF-8': 'utf-8',
  'UTF-16LE': 'utf-16le',
  'UTF-16BE': 'utf-16be',
  'windows-1256': 'windows-1256',
  'ISO-8859-6': 'iso-8859-6',
  'ISO-8859-1': 'windows-1252',
  'windows-1252': 'windows-1252',
  'ISO-8859-2': 'iso-8859-2',
  'ISO-8859-7': 'iso-8859-7',
  'ISO-8859-8': 'iso-8859-8',
  'ISO-8859-9': 'windows-1254',
  'windows-1251': 'windows-1251',
  'KOI8-R': 'koi8-r',
  Shift_JIS: 'shift_jis',
  'EUC-JP': 'euc-jp',
  'EUC-KR': 'euc-kr',
  GB18030: 'gb18030',
  Big5: 'big5',
};

/** UTF-16 without a byte-order mark: one half of every code unit is zero for spaces and Latin letters. */
function bomlessUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes.length < 4 || bytes.length % 2 !== 0) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < bytes.length; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = bytes.length / 2;
  if (oddZeros >= pairs * 0.05 && evenZeros === 0) return 'utf-16le';
  if (evenZeros >= pairs * 0.05 && oddZeros === 0) return 'utf-16be';
  return null;
}

function decode(bytes: Uint8Array, encoding: string, fatal = false): string {
  return new TextDecoder(encoding, { fatal }).decode(bytes).replace(/\r\n?/g, '\n');
}

export function decodeTextBytes(bytes: Uint8Array): DecodedText {
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: decode(bytes, 'utf-16le'), encoding: 'utf-16le', converted: true };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: decode(bytes, 'utf-16be'), encoding: 'utf-16be', converted: true };
  const utf16 = bomlessUtf16(bytes);
  if (utf16) return { text: decode(bytes, utf16), encoding: utf16, converted: true };
  try {
    // TextDecoder drops a UTF-8 BOM by itself.
    return { text: decode(bytes, 'utf-8', true), encoding: 'utf-8', converted: false };
  } catch {
    // not UTF-8: ask the detector
  }
  for (const match of chardet.analyse(bytes)) {
    const encoding = DECODABLE[match.name];
    if (encoding && encoding !== 'utf-8') return { text: decode(bytes, encoding), encoding, converted: true };
  }
  return { text: decode(bytes, 'windows-1252'), encoding: 'windows-1252', converted: true };
}
