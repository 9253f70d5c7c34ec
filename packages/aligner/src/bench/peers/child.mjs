// A 16 kHz mono 16-bit PCM WAV read into floats: all the peers' children need (the eval sets are such files).
import { readFileSync } from 'node:fs';

export function readWav16k(path) {
  const b = readFileSync(path);
  if (b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WAVE')
    throw new Error(`${path}: not a WAV file`);
  let fmt = null;
  for (let at = 12; at + 8 <= b.length;) {
    const id = b.toString('latin1', at, at + 4);
    const size = b.readUInt32LE(at + 4);
    if (id === 'fmt ')
      fmt = {
        format: b.readUInt16LE(at + 8),
        channels: b.readUInt16LE(at + 10),
        rate: b.readUInt32LE(at + 12),
        bits: b.readUInt16LE(at + 22),
      };
    if (id === 'data') {
      if (!fmt || fmt.format !== 1 || fmt.channels !== 1 || fmt.rate !== 16000 || fmt.bits !== 16)
        throw new Error(`${path}: the peers read 16 kHz mono 16-bit PCM only`);
      const n = Math.floor(Math.min(size, b.length - at - 8) / 2);
      const out = new Float32Array(n);
      for (let i = 0; i < n; i++) out[i] = b.readInt16LE(at + 8 + 2 * i) / 32768;
      return out;
    }
    at += 8 + size + (size & 1);
  }
  throw new Error(`${path}: no data chunk`);
}

/** What every child prints last: one JSON line the parent reads. */
export function report(fields) {
  process.stdout.write(
    `${JSON.stringify({ ...fields, peakRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
  );
}
