// The one WAV writer (wav.ts: wavHeader, wavBytes16, wavBytesFloat), checked against ffmpeg's reading of
// what it writes and against this module's own in-process reader.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeWithFfmpeg, probeWithFfprobe } from './decode.ts';
import { readWavAtRate, readWavAtRate16, wavBytes16, wavBytesFloat, wavHeader } from './wav.ts';

const dir = mkdtempSync(join(tmpdir(), 'tz-wav-'));

function file(name: string, bytes: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

test('a 16-bit WAV: ffprobe describes it as written, and both readers give its samples back', async () => {
  const rate = 16_000;
  const samples = new Int16Array(rate / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = Math.round(12_000 * Math.sin(i / 7)) - (i % 3);
  samples[0] = -32768;
  samples[1] = 32767;
  const path = file('s16.wav', wavBytes16(samples, rate));
  assert.deepEqual(await probeWithFfprobe(path), {
    format: 'wav',
    duration: 0.5,
    sampleRate: rate,
    channels: 1,
    codec: 'pcm_s16le',
  });
  assert.deepEqual(readWavAtRate16(path, rate)?.samples, samples);
  assert.deepEqual((await decodeWithFfmpeg(path, 's16')).samples, samples);
});

test('32- and 64-bit float WAVs at another rate: ffprobe and the in-process reader agree with the writer', async () => {
  const rate = 22_050;
  const wide = new Float64Array(rate / 10);
  for (let i = 0; i < wide.length; i++) wide[i] = 0.6 * Math.cos(i / 11);
  const narrow = Float32Array.from(wide);
  for (const [name, samples, codec] of [
    ['f32.wav', narrow, 'pcm_f32le'],
    ['f64.wav', wide, 'pcm_f64le'],
  ] as const) {
    const path = file(name, wavBytesFloat(samples, rate));
    const probe = await probeWithFfprobe(path);
    assert.equal(probe.codec, codec);
    assert.equal(probe.sampleRate, rate);
    assert.equal(probe.channels, 1);
    assert.ok(Math.abs(probe.duration - 0.1) < 1e-6, `${name}: ${probe.duration} s`);
    // the reader returns 32-bit floats: a 64-bit file's values rounded to them
    assert.deepEqual(readWavAtRate(path, rate)?.samples, narrow, name);
  }
});

test('the header announces what follows, and saturates at 4 GiB instead of wrapping', () => {
  const h = wavHeader(1000, 8000, 'float32');
  assert.equal(h.length, 44);
  assert.equal(h.toString('latin1', 0, 4), 'RIFF');
  assert.equal(h.readUInt32LE(4), 1036);
  assert.equal(h.toString('latin1', 8, 16), 'WAVEfmt ');
  assert.equal(h.readUInt16LE(20), 3, 'IEEE float');
  assert.equal(h.readUInt32LE(28), 32_000, 'bytes per second');
  assert.equal(h.readUInt16LE(32), 4, 'block align');
  assert.equal(h.readUInt16LE(34), 32, 'bits');
  assert.equal(h.readUInt32LE(40), 1000);
  const huge = wavHeader(5e9, 16_000);
  assert.equal(huge.readUInt32LE(4), 0xffffffff);
  assert.equal(huge.readUInt32LE(40), 0xffffffff);
  assert.equal(huge.readUInt16LE(20), 1, 'PCM');
});
