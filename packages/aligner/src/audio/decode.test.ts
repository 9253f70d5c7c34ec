import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AudioError, decodeAudio, ffmpegPath, probeAudio } from './decode.ts';
import { assertAlignable, measureAudio } from './measure.ts';

const dir = mkdtempSync(join(tmpdir(), 'tz-audio-'));

/** A 1.5 s stereo 44.1 kHz test signal (440 Hz tone + a gap) encoded by ffmpeg into the given file. */
function makeFile(name: string, extra: string[] = []): string {
  const out = join(dir, name);
  const r = spawnSync(ffmpegPath(), [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=44100:duration=1.5',
    '-af',
    'volume=0.5',
    '-ac',
    '2',
    ...extra,
    out,
  ]);
  assert.equal(r.status, 0, `ffmpeg failed to make ${name}: ${r.stderr?.toString()}`);
  return out;
}

for (const [name, extra] of [
  ['tone.wav', []],
  ['tone.mp3', []],
  ['tone.m4a', ['-c:a', 'aac']],
  ['tone.ogg', ['-c:a', 'libvorbis']],
] as const) {
  test(`decodes ${name} to 16 kHz mono float`, async () => {
    const file = makeFile(name, [...extra]);
    const { samples, probe } = await decodeAudio(file);
    assert.equal(probe.channels, 2);
    assert.ok(Math.abs(samples.length / 16000 - 1.5) < 0.06, `duration ${samples.length / 16000}`);
    const stats = measureAudio(samples);
    assert.ok(
      stats.peakDbfs !== null && stats.peakDbfs > -27 && stats.peakDbfs < -21,
      `peak ${stats.peakDbfs}`,
    );
    assert.ok(stats.silenceRatio < 0.1);
    assert.equal(stats.clippingRatio, 0);
  });
}

test('an empty file is a clear error', async () => {
  const f = join(dir, 'empty.wav');
  writeFileSync(f, '');
  await assert.rejects(decodeAudio(f), (e: unknown) => e instanceof AudioError && e.code === 'empty');
});

test('a text file is not audio', async () => {
  const f = join(dir, 'notes.mp3');
  writeFileSync(f, 'this is not audio at all\n'.repeat(50));
  await assert.rejects(probeAudio(f), (e: unknown) => e instanceof AudioError && e.code === 'not_audio');
});

test('random bytes are refused', async () => {
  const f = join(dir, 'garbage.wav');
  const bytes = Buffer.alloc(20000);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + 13) % 251;
  writeFileSync(f, bytes);
  await assert.rejects(decodeAudio(f), (e: unknown) => e instanceof AudioError);
});

test('a missing file is a clear error', async () => {
  await assert.rejects(
    decodeAudio(join(dir, 'nope.wav')),
    (e: unknown) => e instanceof AudioError && e.code === 'not_found',
  );
});

test('digital silence is refused as silent', async () => {
  const stats = measureAudio(new Float32Array(16000 * 2));
  assert.throws(
    () => assertAlignable(stats),
    (e: unknown) => e instanceof AudioError && e.code === 'silent',
  );
});
