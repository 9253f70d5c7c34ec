// Transcripts as the probe of issue 27 built them: TextGrids whose declared counts the file cannot hold,
// and large texts that pack about forty times (under the zip-bomb ratio, as a real corpus would).

/** A one-tier TextGrid (short format) of three intervals that declares `declared` of them. */
export function hostileTextGrid(declared: string): string {
  return `${[
    'File type = "ooTextFile"',
    'Object class = "TextGrid"',
    '',
    '0',
    '3',
    '<exists>',
    '1',
    '"IntervalTier"',
    '"words"',
    '0',
    '3',
    declared,
    '0',
    '1',
    '"she"',
    '1',
    '2',
    '"had"',
    '2',
    '3',
    '"your"',
  ].join('\n')}\n`;
}

/**
 * `bytes` of lower-case words that deflate about forty times: each kilobyte repeats most of the one
 * before it (a back-reference) and adds twenty letters of a fixed pseudo-random sequence (literals).
 */
export function lowRatioText(bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  let seed = 0x2f6b_4c1d;
  const letter = () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return 97 + ((seed >>> 16) % 26);
  };
  const block = Buffer.from('she had your dark suit in greasy wash water all year '.repeat(20)).subarray(
    0,
    980,
  );
  for (let at = 0; at < bytes; at += 1000) {
    block.copy(out, at, 0, Math.min(980, bytes - at));
    for (let k = 980; k < 999 && at + k < bytes; k++) out[at + k] = letter();
    if (at + 999 < bytes) out[at + 999] = 0x20;
  }
  return out;
}
