// A Sphinx pronunciation dictionary ("word PH ON ES" lines, alternatives as "word(2)"), looked up without
// turning its 135,000 lines into JavaScript strings: the file stays one buffer and an open-addressing
// table of line offsets, keyed by a hash of the word's bytes, finds a word's first line (its alternatives
// follow it). Building the index takes a few milliseconds and about a megabyte, against 150 ms and 44 MB
// for a Map of the whole CMU dictionary, which every worker thread would pay.

function hashBytes(b: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return h >>> 0;
}

const SPACE = 0x20;
const TAB = 0x09;
const NL = 0x0a;
const CR = 0x0d;
const OPEN = 0x28; // (
const SEMI = 0x3b; // ;

export class PronunciationDictionary {
  private readonly table: Int32Array;
  private readonly mask: number;
  /** words added at run time (user lexicon, grammar-safe names) */
  private readonly added = new Map<string, string[][]>();

  constructor(private readonly bytes: Uint8Array) {
    let lines = 0;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === NL) lines++;
    let size = 1024;
    while (size < lines * 2) size <<= 1;
    this.table = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    let p = 0;
    while (p < bytes.length) {
      let e = bytes.indexOf(NL, p);
      if (e < 0) e = bytes.length;
      if (bytes[p] !== SEMI || bytes[p + 1] !== SEMI) {
        const end = this.baseEnd(p, e);
        if (end > p) this.insert(p, end);
      }
      p = e + 1;
    }
  }

  /** End of a line's base word: before the first blank, and before an "(n)" alternative marker. */
  private baseEnd(p: number, e: number): number {
    let w = p;
    while (w < e && this.bytes[w] !== SPACE && this.bytes[w] !== TAB) w++;
    if (w > p + 2 && this.bytes[w - 1] === 0x29) {
      let q = w - 2;
      while (q > p && this.bytes[q]! >= 0x30 && this.bytes[q]! <= 0x39) q--;
      if (this.bytes[q] === OPEN && q < w - 2) return q;
    }
    return w;
  }

  private insert(p: number, end: number): void {
    let i = hashBytes(this.bytes, p, end) & this.mask;
    for (;;) {
      const at = this.table[i]!;
      if (at < 0) {
        this.table[i] = p;
        return;
      }
      if (this.sameWord(at, this.bytes, p, end)) return; // an alternative: the first line is indexed
      i = (i + 1) & this.mask;
    }
  }

  private sameWord(line: number, key: Uint8Array, from: number, to: number): boolean {
    const n = to - from;
    const b = this.bytes;
    for (let k = 0; k < n; k++) if (b[line + k] !== key[from + k]) return false;
    const next = b[line + n];
    if (next === SPACE || next === TAB) return true;
    if (next !== OPEN) return false;
    // "word(2)": an alternative of word, not a different word that starts with it
    let q = line + n + 1;
    while (b[q]! >= 0x30 && b[q]! <= 0x39) q++;
    return b[q] === 0x29 && q > line + n + 1;
  }

  /** All pronunciations of a word, in the dictionary's order (word, word(2), ...). */
  lookup(word: string): string[][] {
    const added = this.added.get(word);
    if (added) return added;
    const key = new TextEncoder().encode(word);
    if (key.length === 0) return [];
    let i = hashBytes(key, 0, key.length) & this.mask;
    let line = -1;
    for (;;) {
      const at = this.table[i]!;
      if (at < 0) return [];
      if (this.sameWord(at, key, 0, key.length)) {
        line = at;
        break;
      }
      i = (i + 1) & this.mask;
    }
    const out: string[][] = [];
    const dec = new TextDecoder();
    for (let p = line; p < this.bytes.length; ) {
      let e = this.bytes.indexOf(NL, p);
      if (e < 0) e = this.bytes.length;
      if (!this.sameWord(p, key, 0, key.length)) break;
      let end = e;
      if (this.bytes[end - 1] === CR) end--;
      const text = dec.decode(this.bytes.subarray(p, end)).trim();
      out.push(text.split(/\s+/).slice(1));
      p = e + 1;
    }
    return out;
  }

  add(word: string, phones: string[]): void {
    this.added.set(word, [phones]);
  }
}

/** Filler words of a noise dictionary ("<sil> SIL", "[NOISE] +NSN+"), without the utterance markers. */
export function readFillers(text: string): { word: string; phone: string }[] {
  const out: { word: string; phone: string }[] = [];
  for (const line of text.split('\n')) {
    const [word, phone] = line.trim().split(/\s+/);
    if (!word || !phone || word === '<s>' || word === '</s>') continue;
    out.push({ word, phone });
  }
  return out;
}
