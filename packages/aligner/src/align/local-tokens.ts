// TEMPORARY stand-in until text/normalize.ts lands: whitespace tokens with their offsets, punctuation
// stripped for the model, lowercased. Delete when the text helper's normaliser is in.
export interface SourceWordLocal {
  index: number;
  text: string;
  charStart: number;
  charEnd: number;
}

export function localTokens(text: string): {
  words: SourceWordLocal[];
  tokens: { text: string; wordIndex: number }[];
  processedText: string;
} {
  const words: SourceWordLocal[] = [];
  const tokens: { text: string; wordIndex: number }[] = [];
  for (const m of text.matchAll(/\S+/g)) {
    const index = words.length;
    words.push({ index, text: m[0], charStart: m.index, charEnd: m.index + m[0].length });
    for (const part of m[0]
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}'-]/gu, '')
      .split('-')) {
      const t = part.replace(/^'+|'+$/g, '');
      if (t) tokens.push({ text: t, wordIndex: index });
    }
  }
  return { words, tokens, processedText: tokens.map((t) => t.text).join(' ') };
}
