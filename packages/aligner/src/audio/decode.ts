// Decoding any container ffmpeg reads into 16 kHz mono Float32, streamed from the child process so a
// long file never exists twice in memory as bytes and floats. ffprobe gives the source format first so
// garbage and non-audio input fail with a clear message before decoding starts.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { NOT_FINITE_MESSAGE, probeWav, readWavAtRate, readWavAtRate16 } from './wav.ts';
import { AudioError } from './audio-file.ts';
import type { ProbeInfo } from './audio-file.ts';
import { toS16 } from './pcm.ts';

export const SAMPLE_RATE = 16000;

const require = createRequire(import.meta.url);

function toolPath(name: 'ffmpeg' | 'ffprobe'): string {
  const system = `/usr/bin/${name}`;
  if (existsSync(system)) return system;
  // The npm-shipped static build keeps a fresh machine working without Debian's package.
  const mod = require(name === 'ffmpeg' ? '@ffmpeg-installer/ffmpeg' : '@ffprobe-installer/ffprobe') as {
    path: string;
  };
  return mod.path;
}

export const ffmpegPath = (): string => toolPath('ffmpeg');
export const ffprobePath = (): string => toolPath('ffprobe');

/**
 * Writes a 16 kHz mono 16-bit WAV from a file of raw float32 samples (tests and the long-audio bench build
 * their inputs this way). Throws with ffmpeg's message when the conversion fails.
 */
export function rawF32ToWav(rawPath: string, wavPath: string): void {
  execFileSync(ffmpegPath(), [
    '-v',
    'error',
    '-f',
    'f32le',
    '-ar',
    String(SAMPLE_RATE),
    '-ac',
    '1',
    '-i',
    rawPath,
    '-c:a',
    'pcm_s16le',
    wavPath,
  ]);
}

/**
 * Demuxers an input may be read with. ffmpeg picks a demuxer from the content (and the name), and some
 * read other files: an ID3 tag followed by an HLS playlist passed the upload's MP3 check and then made
 * ffmpeg open the playlist's "segments", any local file (issue 27, item 8). Every run on a user's file
 * is held to plain audio containers (`-format_whitelist`), to the file itself (`-protocol_whitelist`),
 * and the decode step is told the probe's demuxer (`-f`) instead of guessing again.
 */
export const AUDIO_DEMUXERS = [
  'wav',
  'w64',
  'mp3',
  'mov',
  'ogg',
  'flac',
  'matroska',
  'aac',
  'aiff',
  'caf',
  'au',
  'amr',
  'wv',
] as const;

/** ffmpeg/ffprobe input options for a user's file: local file only, audio containers only. */
export function inputGuard(demuxer?: string): string[] {
  const guard = ['-protocol_whitelist', 'file,pipe', '-format_whitelist', AUDIO_DEMUXERS.join(',')];
  return demuxer ? [...guard, '-f', demuxer] : guard;
}

/** ffprobe reads headers only; a file that keeps it busy this long is refused, not waited for. */
export const PROBE_TIMEOUT_MS = 30_000;

function run(
  cmd: string,
  args: string[],
  timeoutMs: number,
): Promise<{ code: number; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr, timedOut });
    });
  });
}

export async function probeAudio(path: string): Promise<ProbeInfo> {
  assertFile(path);
  // a PCM or float WAV describes itself in its header: no ffprobe child for it (audio/wav.ts)
  return probeWav(path) ?? probeWithFfprobe(path);
}

function assertFile(path: string): void {
  if (!existsSync(path)) throw new AudioError('not_found', `audio file not found: ${path}`);
  if (statSync(path).size === 0) throw new AudioError('empty', `audio file is empty: ${path}`);
}

/** probeAudio's ffprobe path, for every input (tests compare the header reading with it). */
export async function probeWithFfprobe(path: string): Promise<ProbeInfo> {
  assertFile(path);
  const r = await run(
    ffprobePath(),
    ['-v', 'error', ...inputGuard(), '-print_format', 'json', '-show_format', '-show_streams', path],
    PROBE_TIMEOUT_MS,
  );
  if (r.timedOut)
    throw new AudioError(
      'not_audio',
      `not a readable audio file (ffprobe took over ${PROBE_TIMEOUT_MS / 1000} s)`,
    );
  if (r.code !== 0) {
    throw new AudioError(
      'not_audio',
      `not a readable audio file (${r.stderr.trim().split('\n')[0] ?? 'ffprobe failed'})`,
    );
  }
  const info = JSON.parse(r.stdout) as {
    format?: { format_name?: string; duration?: string };
    streams?: {
      codec_type?: string;
      codec_name?: string;
      sample_rate?: string;
      channels?: number;
      duration?: string;
    }[];
  };
  const stream = info.streams?.find((s) => s.codec_type === 'audio');
  if (!stream) throw new AudioError('not_audio', 'the file has no audio stream');
  const duration = Number(stream.duration ?? info.format?.duration ?? NaN);
  return {
    format: info.format?.format_name ?? 'unknown',
    duration: Number.isFinite(duration) ? duration : 0,
    sampleRate: Number(stream.sample_rate ?? 0),
    channels: stream.channels ?? 1,
    codec: stream.codec_name ?? 'unknown',
  };
}

/**
 * Decodes to 16 kHz mono float in [-1, 1]: a mono or stereo PCM/float WAV already at 16 kHz is read
 * in-process (audio/wav.ts, the same samples bit for bit), anything else through ffprobe and ffmpeg.
 * `probe`: what probeAudio already said of the file, so ffprobe does not read it a second time.
 */
export async function decodeAudio(
  path: string,
  probe?: ProbeInfo,
): Promise<{ samples: Float32Array; probe: ProbeInfo }> {
  return readWavAtRate(path, SAMPLE_RATE) ?? decodeWithFfmpeg(path, 'f32', probe);
}

/** As decodeAudio, to 16-bit integers (audio/pcm.ts): half the memory, for the HMM back-end. */
export async function decodeAudio16(
  path: string,
  probe?: ProbeInfo,
): Promise<{ samples: Int16Array; probe: ProbeInfo }> {
  return readWavAtRate16(path, SAMPLE_RATE) ?? decodeWithFfmpeg(path, 's16', probe);
}

/** The ffmpeg path of decodeAudio, for every input (tests compare the two paths with it). */
export async function decodeWithFfmpeg(
  path: string,
  as?: 'f32',
  probe?: ProbeInfo,
): Promise<{ samples: Float32Array; probe: ProbeInfo }>;
export async function decodeWithFfmpeg(
  path: string,
  as: 's16',
  probe?: ProbeInfo,
): Promise<{ samples: Int16Array; probe: ProbeInfo }>;
export async function decodeWithFfmpeg(
  path: string,
  as: 'f32' | 's16' = 'f32',
  probed?: ProbeInfo,
): Promise<{ samples: Float32Array | Int16Array; probe: ProbeInfo }> {
  const probe = probed ?? (await probeWithFfprobe(path));
  // the demuxer the probe found (the first name of "mov,mp4,m4a,..."), never a second guess
  const demuxer = probe.format.split(',')[0]!;
  // ffmpeg always hands over floats: its own s16 output mixes channels down with other gains (a matrix
  // normalised against clipping), and the 16-bit samples must be the floats rounded, as audio/wav.ts does.
  const width = 4;
  const child = spawn(
    ffmpegPath(),
    [
      '-nostdin',
      '-v',
      'error',
      ...inputGuard(demuxer),
      '-i',
      path,
      '-vn',
      '-ac',
      '1',
      '-ar',
      String(SAMPLE_RATE),
      '-f',
      'f32le',
      '-acodec',
      'pcm_f32le',
      'pipe:1',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const make = (n: number) => (as === 'f32' ? new Float32Array(n) : new Int16Array(n));
  // Grow a buffer as chunks arrive; the probe duration sizes it so most files never reallocate.
  let cap = Math.max(SAMPLE_RATE, Math.ceil((probe.duration + 1) * SAMPLE_RATE));
  let buf = make(cap);
  let n = 0;
  let carry = Buffer.alloc(0);
  let stderr = '';
  let nonFinite = false;
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    const data = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    const whole = data.length - (data.length % width);
    const count = whole / width;
    if (n + count > cap) {
      cap = Math.max(cap * 2, n + count);
      const next = make(cap);
      next.set(buf.subarray(0, n));
      buf = next;
    }
    for (let i = 0; i < count; i++) {
      const x = data.readFloatLE(i * 4);
      // NaN or infinity (a float source passes them through): nothing a person said (issue 27)
      if (!Number.isFinite(x)) nonFinite = true;
      buf[n + i] = as === 'f32' ? x : toS16(x);
    }
    n += count;
    carry = Buffer.from(data.subarray(whole));
  });
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c) => resolve(c ?? 1));
  });
  if (code !== 0)
    throw new AudioError(
      'decode_failed',
      `ffmpeg could not decode the audio: ${stderr.trim().split('\n')[0] ?? ''}`,
    );
  if (n === 0) throw new AudioError('empty', 'the audio stream holds no samples');
  if (nonFinite) throw new AudioError('decode_failed', NOT_FINITE_MESSAGE);
  // A view, not a copy: the probe sized the buffer to within a second, and a copy of a 3-hour file
  // would hold it twice (1.4 GB) for a moment. Only a buffer that grew past its need is trimmed.
  return { samples: cap - n > SAMPLE_RATE * 60 ? buf.slice(0, n) : buf.subarray(0, n), probe };
}
