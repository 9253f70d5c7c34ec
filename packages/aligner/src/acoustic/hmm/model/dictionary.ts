// A Sphinx pronunciation dictionary ("word PH ON ES" lines, alternatives as "word(2)", not always next
// to "word": cmudict sorts "a's" between "a" and "a(2)"), looked up without turning its 135,000 lines
// into JavaScript strings: the file stays one buffer and an open-addressing table of line offsets, keyed
// by a hash of the line's first token, finds "word", then "word(2)", "word(3)"... Building the index takes
// a few milliseconds and about a megabyte, against 150 ms and 44 MB for a Map of the whole CMU
// dictionary, which every worker thread would pay.

function hashBytes(b: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return h >>> 0;
}

const SPACE = 0x20;
const TAB = 0x09;
const NL = 0x0a;
const CR = 0x0d;
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
        let end = p;
        while (end < e && bytes[end] !== SPACE && bytes[end] !== TAB) end++;
        if (end > p) this.insert(p, end);
      }
      p = e + 1;
    }
  }

  private insert(p: number, end: number): void {
    let i = hashBytes(this.bytes, p, end) & this.mask;
    for (;;) {
      const at = this.table[i]!;
      if (at < 0) {
        this.table[i] = p;
        return;
      }
      if (this.sameWord(at, this.bytes, p, end)) return; // a repeated entry: the first is kept
      i = (i + 1) & this.mask;
    }
  }

  /** Whether the token starting at `line` is exactly key[from, to). */
  private sameWord(line: number, key: Uint8Array, from: number, to: number): boolean {
    const n = to - from;
    const b = this.bytes;
    for (let k = 0; k < n; k++) if (b[line + k] !== key[from + k]) return false;
    const next = b[line + n];
    return next === SPACE || next === TAB;
  }

  /** The phones of the line holding exactly this token, or null. */
  private entry(token: string): string[] | null {
    const key = new TextEncoder().encode(token);
    if (key.length === 0) return null;
    let i = hashBytes(key, 0, key.length) & this.mask;
    for (;;) {
      const at = this.table[i]!;
      if (at < 0) return null;
      if (this.sameWord(at, key, 0, key.length)) {
        let e = this.bytes.indexOf(NL, at);
        if (e < 0) e = this.bytes.length;
        if (this.bytes[e - 1] === CR) e--;
        return new TextDecoder()
          .decode(this.bytes.subarray(at + key.length, e))
          .trim()
          .split(/\s+/);
      }
      i = (i + 1) & this.mask;
    }
  }

  /** All pronunciations of a word, in the dictionary's order (word, word(2), ...). */
  lookup(word: string): string[][] {
    const added = this.added.get(word);
    if (added) return added;
    const out: string[][] = [];
    for (let k = 1; ; k++) {
      const phones = this.entry(k === 1 ? word : `${word}(${k})`);
      if (!phones) break;
      out.push(phones);
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
