// Small real WAV files for tests and the load bench: the upload route sniffs their header and ffprobe reads them.

/**
 * The 44-byte header of a 16-bit mono PCM WAV. Sizes saturate at 4 GiB so that a header may announce more
 * data than is actually sent (the hostile-input tests rely on that).
 */
export function wavHeader(dataBytes: number, rate = 16_000): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(Math.min(0xffffffff, 36 + dataBytes), 4);
  h.write('WAVEfmt ', 8);
  h.writeUInt32LE(16, 16); // fmt chunk size
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28); // bytes per second
  h.writeUInt16LE(2, 32); // block align
  h.writeUInt16LE(16, 34); // bits per sample
  h.write('data', 36);
  h.writeUInt32LE(Math.min(0xffffffff, dataBytes), 40);
  return h;
}

/** A 16-bit mono PCM WAV lasting `seconds`, whose i-th sample is `sample(i)` (rounded). */
export function pcmWav(seconds: number, sample: (i: number) => number, rate = 16_000): Buffer {
  const n = Math.round(rate * seconds);
  const data = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) data.writeInt16LE(Math.round(sample(i)), i * 2);
  return Buffer.concat([wavHeader(data.length, rate), data]);
}

/** A mono IEEE-float WAV (32 or 64-bit) lasting `seconds`, whose i-th sample is `sample(i)` (NaN allowed). */
export function floatWav(
  seconds: number,
  sample: (i: number) => number,
  rate = 16_000,
  bits: 32 | 64 = 32,
): Buffer {
  const n = Math.round(rate * seconds);
  const width = bits / 8;
  const data = Buffer.alloc(n * width);
  for (let i = 0; i < n; i++)
    if (bits === 32) data.writeFloatLE(sample(i), i * width);
    else data.writeDoubleLE(sample(i), i * width);
  const h = wavHeader(data.length, rate);
  h.writeUInt16LE(3, 20); // IEEE float
  h.writeUInt32LE(rate * width, 28);
  h.writeUInt16LE(width, 32);
  h.writeUInt16LE(bits, 34);
  return Buffer.concat([h, data]);
}
