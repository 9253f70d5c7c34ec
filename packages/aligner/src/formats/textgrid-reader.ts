// Reading a Praat TextGrid (long and short text formats), the one reader of the format: what a corpus
// transcript is made of (corpus/corpus-layout.ts pairs the files; the server's batches and the CLI's
// corpus alignment read them through this). The writer is textgrid.ts.

export type TextGridProblem = 'not_textgrid' | 'tiers' | 'malformed';

/** The fewest characters one item takes (a point: a number, a separator and an empty label, `0 ""`). */
const MIN_ITEM_CHARS = 4;

/**
 * The tokens of a TextGrid one at a time: quoted strings (with "" as an escaped quote) and bare
 * words/numbers; the long format's "name = value" labels and brackets are skipped. Nothing is held but
 * the position, so a file costs its own size and one token at a time.
 */
class TextGridTokens {
  private readonly re = /"((?:[^"]|"")*)"|([^\s=[\]:"]+)/g;
  private done = false;

  constructor(
    private readonly src: string,
    from: number,
  ) {
    this.re.lastIndex = from;
  }

  /** Characters not read yet. */
  get remaining(): number {
    return this.done ? 0 : this.src.length - this.re.lastIndex;
  }

  next(): { s: string; quoted: boolean } | null {
    if (this.done) return null;
    const m = this.re.exec(this.src);
    if (!m) {
      this.done = true;
      return null;
    }
    return m[1] !== undefined ? { s: m[1].replace(/""/g, '"'), quoted: true } : { s: m[2]!, quoted: false };
  }

  /** The next bare token that reads as a number (Infinity included: the caller judges it); null at the end. */
  number(): number | null {
    for (let t = this.next(); t; t = this.next()) {
      if (t.quoted) continue;
      const x = Number(t.s);
      if (!Number.isNaN(x)) return x;
    }
    return null;
  }

  /** The next quoted string; null at the end. */
  quoted(): string | null {
    for (let t = this.next(); t; t = this.next()) if (t.quoted) return t.s;
    return null;
  }
}

/**
 * The transcript held by a TextGrid's single tier: the labels of its intervals (or points) in order,
 * joined by spaces. Reads Praat's long and short text formats. Refuses a file that is not a TextGrid,
 * one of more than one tier (which tier is the transcript would be a guess), and one whose declared
 * counts the bytes that follow cannot hold (`intervals: size = 1e999` or `2e8` in a small file): the
 * work is one pass over the text, whatever the file claims.
 */
export function textGridTranscript(content: string): { text: string } | { error: TextGridProblem } {
  const src = content.replace(/^\uFEFF/, '');
  const header = /^File type = "ooTextFile"\s*\r?\nObject class = "TextGrid"/.exec(src);
  if (!header) return { error: 'not_textgrid' };
  const tokens = new TextGridTokens(src, header[0].length);
  // After the header: xmin xmax, <exists>, size, then each tier.
  tokens.number(); // xmin
  tokens.number(); // xmax
  const tierCount = tokens.number();
  if (tierCount === null) return { error: 'malformed' };
  if (tierCount !== 1) return { error: 'tiers' };
  // The tier's class and name are the next two quoted strings, then its xmin, xmax and size.
  const kind = tokens.quoted();
  if (kind !== 'IntervalTier' && kind !== 'TextTier') return { error: 'malformed' };
  if (tokens.quoted() === null) return { error: 'malformed' }; // name
  tokens.number(); // xmin
  tokens.number(); // xmax
  const n = tokens.number();
  if (n === null || !Number.isSafeInteger(n) || n < 0 || n > tokens.remaining / MIN_ITEM_CHARS)
    return { error: 'malformed' };
  const labels: string[] = [];
  // Each item's numbers come before its label; only the label is kept.
  for (let k = 0; k < n; k++) {
    const label = tokens.quoted();
    if (label === null) return { error: 'malformed' };
    const trimmed = label.trim();
    if (trimmed) labels.push(trimmed);
  }
  return { text: labels.join(' ') };
}
