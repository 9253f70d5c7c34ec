// What every peer's child process shares: the manifest, 16 kHz PCM WAVs read into floats (the eval sets
// are such files), one hypothesis JSON per file, per-file times, and the JSON line the parent reads.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

function readWav16k(path) {
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

/**
 * Aligns every item of the manifest with `alignOne(samples, text)` (returning [{word, start, end}]),
 * writes OUT_DIR/<uid>.json for each (no words when it threw), then prints the report: start-up (the
 * process's clock when this is called, models loaded), seconds per file, files that failed.
 */
export async function alignEach(manifest, outDir, alignOne) {
  const startup = performance.now() / 1000;
  const items = JSON.parse(readFileSync(manifest, 'utf8'));
  const perFile = [];
  let failed = 0;
  for (const it of items) {
    const t0 = performance.now();
    const pcm = readWav16k(it.audio);
    let words = [];
    try {
      words = await alignOne(pcm, it.text);
    } catch (err) {
      failed++;
      if (failed === 1) process.stderr.write(`${err?.message ?? err}\n`);
    }
    writeFileSync(join(outDir, `${it.uid}.json`), JSON.stringify({ words }));
    perFile.push((performance.now() - t0) / 1000);
  }
  process.stdout.write(
    `${JSON.stringify({ startup, perFile, failed, peakRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
  );
}
