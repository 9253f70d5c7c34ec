import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AudioError } from './audio-file.ts';
import {
  AUDIO_DEMUXERS,
  decodeAudio,
  decodeAudio16,
  decodeWithFfmpeg,
  ffmpegPath,
  inputGuard,
  probeAudio,
  probeWithFfprobe,
} from './decode.ts';
import { probeWav, readWavAtRate, readWavAtRate16, wavBytesFloat, wavHoldsNonFinite } from './wav.ts';
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

/** A 1.3 s file at `rate` whose channels differ (a tone on the first, pink noise on the second). */
function makeMixed(name: string, channels: 1 | 2 | 3, codec: string, rate = 16_000): string {
  const out = join(dir, name);
  const inputs = ['-f', 'lavfi', '-i', `sine=frequency=220:sample_rate=${rate}:duration=1.3`];
  for (let c = 1; c < channels; c++)
    inputs.push('-f', 'lavfi', '-i', `anoisesrc=d=1.3:c=pink:r=${rate}:a=0.${c + 2}`);
  const mix =
    channels === 1
      ? []
      : [
          '-filter_complex',
          `${[...Array(channels).keys()].map((c) => `[${c}]`).join('')}amerge=inputs=${channels}`,
        ];
  const r = spawnSync(ffmpegPath(), [
    '-v',
    'error',
    '-y',
    ...inputs,
    ...mix,
    '-c:a',
    codec,
    '-ar',
    String(rate),
    out,
  ]);
  assert.equal(r.status, 0, `ffmpeg failed to make ${name}: ${r.stderr?.toString()}`);
  return out;
}

test('16 kHz WAVs are read in-process to exactly the samples ffmpeg gives, others go through ffmpeg', async () => {
  const cases = [
    ['m16.wav', 1, 'pcm_s16le'],
    ['s16.wav', 2, 'pcm_s16le'],
    ['m8.wav', 1, 'pcm_u8'],
    ['m24.wav', 1, 'pcm_s24le'],
    ['s32.wav', 2, 'pcm_s32le'],
    ['mf32.wav', 1, 'pcm_f32le'],
    ['sf64.wav', 2, 'pcm_f64le'],
  ] as const;
  for (const [name, channels, codec] of cases) {
    const file = makeMixed(name, channels, codec);
    const inProcess = readWavAtRate(file, 16_000);
    assert.ok(inProcess, `${name} is read in-process`);
    const viaFfmpeg = await decodeWithFfmpeg(file);
    assert.deepEqual(inProcess.probe, viaFfmpeg.probe, name);
    assert.equal(inProcess.samples.length, viaFfmpeg.samples.length, name);
    const bytes = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    assert.deepEqual(bytes(inProcess.samples), bytes(viaFfmpeg.samples), name);
    assert.deepEqual((await decodeAudio(file)).samples, viaFfmpeg.samples, name);
  }
  // 16-bit storage: the same floats rounded, whichever path read them
  for (const [name, channels, codec] of cases) {
    const file = join(dir, name);
    const ours = readWavAtRate16(file, 16_000);
    assert.ok(ours, `${name} is read in-process as 16-bit`);
    const theirs = await decodeWithFfmpeg(file, 's16');
    assert.equal(ours.samples.length, theirs.samples.length, name);
    assert.deepEqual(ours.samples, theirs.samples, name);
    if (codec === 'pcm_s16le' && channels === 1) {
      const floats = readWavAtRate(file, 16_000)!.samples;
      assert.ok(
        ours.samples.every((v, i) => v / 32768 === floats[i]),
        'a 16-bit file keeps its own values',
      );
    }
    assert.deepEqual((await decodeAudio16(file)).samples, ours.samples, name);
  }
  // another rate, more channels than two, a compressed codec: not read here, decoded by ffmpeg
  for (const [file, codec, rate, channels] of [
    [makeMixed('m44.wav', 1, 'pcm_s16le', 44_100), 'pcm_s16le', 44_100, 1],
    [makeMixed('t16.wav', 3, 'pcm_s16le'), 'pcm_s16le', 16_000, 3],
    [makeMixed('alaw.wav', 1, 'pcm_alaw'), 'pcm_alaw', 16_000, 1],
  ] as const) {
    assert.equal(readWavAtRate(file, 16_000), null, file);
    const { samples, probe } = await decodeAudio(file);
    assert.equal(samples.length, Math.round(1.3 * 16_000), file);
    assert.deepEqual(samples, (await decodeWithFfmpeg(file)).samples, file);
    assert.deepEqual([probe.codec, probe.sampleRate, probe.channels], [codec, rate, channels], file);
  }
});

test('a PCM or float WAV at any rate is probed from its header to exactly what ffprobe says, others by ffprobe', async () => {
  const wavs = [
    makeMixed('pm16.wav', 1, 'pcm_s16le'),
    makeMixed('ps24.wav', 2, 'pcm_s24le'),
    makeMixed('pm44.wav', 1, 'pcm_s16le', 44_100),
    makeMixed('pt8k.wav', 3, 'pcm_u8', 8_000),
    makeMixed('psf64.wav', 2, 'pcm_f64le', 22_050),
  ];
  for (const file of wavs) {
    const header = probeWav(file);
    assert.ok(header, `${file} is probed from its header`);
    assert.deepEqual(header, await probeWithFfprobe(file), file);
    assert.deepEqual(await probeAudio(file), header, file);
  }
  // a compressed codec inside a WAV: ffprobe's answer
  const alaw = makeMixed('palaw.wav', 1, 'pcm_alaw');
  assert.equal(probeWav(alaw), null);
  assert.equal((await probeAudio(alaw)).codec, 'pcm_alaw');
});

test('a WAV header that lies about its data is still decoded (streamed WAV), a truncated one is refused', async () => {
  const file = makeMixed('streamed.wav', 1, 'pcm_s16le');
  const bytes = readFileSync(file);
  const dataAt = bytes.indexOf('data', 12, 'latin1');
  const streamed = Buffer.from(bytes);
  streamed.writeUInt32LE(0xffffffff, dataAt + 4);
  const streamedFile = join(dir, 'streamed-ff.wav');
  writeFileSync(streamedFile, streamed);
  assert.deepEqual(readWavAtRate(streamedFile, 16_000)?.samples, readWavAtRate(file, 16_000)?.samples);
  // a header alone: no samples, so the ffmpeg path decides (and refuses it)
  const headerOnly = join(dir, 'header-only.wav');
  writeFileSync(headerOnly, bytes.subarray(0, dataAt + 8));
  assert.equal(readWavAtRate(headerOnly, 16_000), null);
  await assert.rejects(decodeAudio(headerOnly), (e: unknown) => e instanceof AudioError);
});

// Issue 27, item 8: an ID3 tag followed by an HLS playlist. The upload's check sees an MP3 (the ID3
// header); ffmpeg, guessing the format from the content, opened the playlist and read its "segment", a
// local file of someone else. Run against whichever ffmpeg and ffprobe this machine uses (ffmpegPath,
// ffprobePath): Debian's 5.1 read the other file as much as the npm fallback's 2018 build did.
function id3HlsPolyglot(name: string, segment: string): string {
  const playlist = Buffer.from(
    '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:0\n' +
      `#EXTINF:2.0,\nfile://${segment}\n#EXT-X-ENDLIST\n`,
  );
  const frame = Buffer.concat([
    Buffer.from('TIT2'),
    Buffer.from([0, 0, 0, 6, 0, 0, 0]),
    Buffer.from('title'),
  ]);
  const size = frame.length; // syncsafe, under 128
  const tag = Buffer.concat([Buffer.from('ID3'), Buffer.from([3, 0, 0, 0, 0, 0, size]), frame]);
  const out = join(dir, name);
  writeFileSync(out, Buffer.concat([tag, playlist]));
  return out;
}

test('an ID3 + HLS polyglot is never read as a playlist: probe and decode refuse it, the other file stays unread', async () => {
  // the "secret": another file on the machine, a loud 2 s tone
  const secret = makeFile('someone-else.mp3', ['-c:a', 'libmp3lame']);
  for (const name of ['upload.mp3', 'upload.m3u8', 'audio.upload']) {
    const poly = id3HlsPolyglot(name, secret);
    await assert.rejects(probeAudio(poly), (err: unknown) => {
      assert.ok(err instanceof AudioError, String(err));
      assert.equal(err.code, 'not_audio');
      return true;
    });
    // decoding goes through the probe first; its ffmpeg step must not read the playlist either
    await assert.rejects(decodeAudio(poly), AudioError);
    await assert.rejects(decodeWithFfmpeg(poly), AudioError);
  }
  // the guard keeps ordinary files working: the tone itself, as MP3, M4A and OGG
  for (const file of [
    secret,
    makeFile('tone.m4a', ['-c:a', 'aac']),
    makeFile('tone.ogg', ['-c:a', 'libvorbis']),
  ]) {
    const { samples, probe } = await decodeWithFfmpeg(file);
    assert.ok(Math.abs(probe.duration - 1.5) < 0.1, `${file}: ${probe.duration}`);
    assert.ok(samples.length > 16000, file);
  }
});

test('the decode step is told the probe’s demuxer and held to local files (inputGuard)', () => {
  assert.deepEqual(inputGuard('mov'), [
    '-protocol_whitelist',
    'file,pipe',
    '-format_whitelist',
    AUDIO_DEMUXERS.join(','),
    '-f',
    'mov',
  ]);
  assert.ok(!AUDIO_DEMUXERS.some((d) => ['hls', 'concat', 'dash', 'image2', 'tty'].includes(d)));
});

/** A mono IEEE-float WAV of `n` samples at `rate`, 32 or 64-bit. */
function floatWavFile(
  name: string,
  n: number,
  sample: (i: number) => number,
  rate = 16000,
  bits: 32 | 64 = 32,
) {
  const samples = bits === 32 ? new Float32Array(n) : new Float64Array(n);
  for (let i = 0; i < n; i++) samples[i] = sample(i);
  const out = join(dir, name);
  writeFileSync(out, wavBytesFloat(samples, rate));
  return out;
}

test('NaN or infinite samples: found by the upload scan, refused by every decode path (issue 27, item 14)', async () => {
  const tone = (i: number) => 0.3 * Math.sin(i / 5);
  // across the 1 MB read boundary, and at the very last sample
  const n = 300_000;
  const cases = [
    floatWavFile('nan32.wav', n, (i) => (i === 262_144 ? NaN : tone(i))),
    floatWavFile('inf32.wav', n, (i) => (i === n - 1 ? Infinity : tone(i))),
    floatWavFile('ninf64.wav', n, (i) => (i === 3 ? -Infinity : tone(i)), 16000, 64),
    floatWavFile('nan44k.wav', n, (i) => (i > 1000 ? NaN : tone(i)), 44100),
  ];
  for (const file of cases) {
    assert.equal(await wavHoldsNonFinite(file), true, file);
    await assert.rejects(decodeAudio(file), /not numbers \(NaN or infinity\)/, file);
    await assert.rejects(decodeAudio16(file), /not numbers \(NaN or infinity\)/, file);
  }
  // the largest finite values and subnormals are numbers
  const finite = floatWavFile('finite.wav', n, (i) => (i === 5 ? 3.4e38 : i === 6 ? 1e-44 : tone(i)));
  assert.equal(await wavHoldsNonFinite(finite), false);
  assert.equal((await decodeAudio(finite)).samples.length, n);
  // integer WAVs and other files are not float WAVs
  assert.equal(await wavHoldsNonFinite(makeFile('pcm16.wav', ['-ar', '16000', '-c:a', 'pcm_s16le'])), null);
  assert.equal(await wavHoldsNonFinite(makeFile('x.ogg', ['-c:a', 'libvorbis'])), null);
});
