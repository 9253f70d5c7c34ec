// The MP4 export: a dark background, an optional waveform of the whole recording with a playhead,
// karaoke subtitles burnt in by libass, an optional watermark, H.264 + AAC at 30 or 60 fps.
//
// What does not change from frame to frame is made once (ADR 0050): the background with the waveform
// is one picture, drawn here from the audio's peaks (read by streaming the decoded samples, so memory
// does not grow with the recording's length) and handed to ffmpeg as a single raw frame that its `loop`
// filter repeats without converting it again. Per frame, ffmpeg only moves the playhead (a small
// overlay), lets libass draw the current line and encodes. x264 runs on one thread with no lookahead
// and no B-frames: about a quarter of the audio's duration at Full HD on one core, and a flat ~130 MB.
// Only the fonts the script names are given to libass (it reads every file of its fonts folder into
// memory). Progress comes from ffmpeg's -progress output and an abort signal kills it.
import { spawn } from 'node:child_process';
import { readdir, symlink, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { VIDEO_RESOLUTIONS } from '@tazamun/contracts/exports';
import type { VideoRequest } from '@tazamun/contracts/exports';
import { ffmpegPath, inputGuard } from '@tazamun/aligner/audio';
import { resolveLanguage } from '@tazamun/aligner/backends';
import { buildKaraokeAss } from './karaoke-ass.ts';
import { JobAborted } from '../jobs/job-queue.ts';

export const VIDEO_FPS = 30;
const BACKGROUND: Rgb = [0x0b, 0x0e, 0x14];
const WAVE: Rgb = [0x3b, 0x82, 0xf6];
const PLAYHEAD = 'white';
/** the waveform's envelope is read at this rate: plenty for one column per pixel */
const PEAK_RATE = 8000;

type Rgb = readonly [number, number, number];

export interface RenderInput {
  result: AlignmentResult;
  audioPath: string;
  workDir: string;
  /** file name inside workDir */
  output: string;
  options: VideoRequest;
  fontsDir: string;
  signal: AbortSignal;
  onProgress: (fraction: number) => void;
}

export function fontFor(language: string): string {
  try {
    return resolveLanguage(language).script === 'Arab' ? 'Noto Naskh Arabic' : 'Noto Sans';
  } catch {
    return 'Noto Sans';
  }
}

/** ffmpeg filter-argument escaping for a path: backslash, colon and quote are special. */
const filterPath = (p: string): string => p.replace(/\\/g, '\\\\').replace(/:/g, '\\:').replace(/'/g, "\\'");

/** Runs ffmpeg; `onStdout` gets its standard output; rejects with its last error lines, or JobAborted. */
function ffmpeg(
  args: string[],
  cwd: string,
  signal: AbortSignal,
  onStdout: (chunk: Buffer) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(new JobAborted(signal.reason));
    const child = spawn(ffmpegPath(), args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.on('data', onStdout);
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
    const onAbort = (): void => {
      child.kill('SIGKILL');
    };
    signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', reject);
    child.on('close', (code) => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) return reject(new JobAborted(signal.reason));
      if (code === 0) return resolve();
      const err = new Error(`ffmpeg exited with ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
      // the disk filled while ffmpeg wrote: the job waits for space rather than failing
      if (/No space left on device/i.test(stderr)) Object.assign(err, { code: 'ENOSPC' });
      reject(err);
    });
  });
}

/**
 * The largest absolute sample of each of `columns` equal slices of the recording, in [0, 1]: the decoded
 * audio streams through (mono, PEAK_RATE), one running maximum per column.
 */
export async function waveformPeaks(
  audioPath: string,
  duration: number,
  columns: number,
  signal: AbortSignal,
): Promise<Float32Array> {
  const peaks = new Float32Array(columns);
  const perColumn = Math.max(1, (duration * PEAK_RATE) / columns);
  let index = 0;
  let odd: number | null = null;
  const take = (sample: number): void => {
    const col = Math.min(columns - 1, Math.floor(index / perColumn));
    const a = Math.abs(sample) / 32768;
    if (a > peaks[col]!) peaks[col] = a;
    index++;
  };
  await ffmpeg(
    [
      '-nostdin',
      '-v',
      'error',
      '-i',
      audioPath,
      '-vn',
      '-ac',
      '1',
      '-ar',
      String(PEAK_RATE),
      '-f',
      's16le',
      'pipe:1',
    ],
    '.',
    signal,
    (chunk) => {
      let i = 0;
      // a sample split between two chunks
      if (odd !== null) {
        take((((chunk[0]! << 8) | odd) << 16) >> 16);
        odd = null;
        i = 1;
      }
      for (; i + 1 < chunk.length; i += 2) take(chunk.readInt16LE(i));
      if (i < chunk.length) odd = chunk[i]!;
    },
  );
  return peaks;
}

export interface WaveBox {
  y: number;
  height: number;
  /** linear gain applied to the peaks before the square-root scale */
  gain: number;
}

/**
 * The still part of every frame as packed RGB: the background, and the waveform when asked (one
 * centred bar per column, its half-height the square root of the column's peak, so normal speech fills
 * its band rather than drawing a flat line; at least one pixel, so silence shows as a line).
 */
export function stillFrame(
  width: number,
  height: number,
  wave: (WaveBox & { peaks: Float32Array }) | null,
): Buffer {
  const frame = Buffer.alloc(width * height * 3, Buffer.from(BACKGROUND));
  if (!wave) return frame;
  const centre = wave.y + wave.height / 2;
  for (let x = 0; x < width; x++) {
    const a = Math.min(1, (wave.peaks[x] ?? 0) * wave.gain);
    const half = Math.max(0.5, (Math.sqrt(a) * wave.height) / 2);
    const top = Math.max(wave.y, Math.round(centre - half));
    const bottom = Math.min(wave.y + wave.height, Math.round(centre + half));
    for (let y = top; y < Math.max(bottom, top + 1); y++) frame.set(WAVE, (y * width + x) * 3);
  }
  return frame;
}

/**
 * A folder with only the font files of the families the script uses (file names starting with the
 * family's name without spaces, e.g. NotoNaskhArabic-Regular.ttf), as links: libass loads every file of
 * its fonts folder into memory. The folder itself when none matches (a FONTS_DIR named otherwise).
 */
export async function fontsFolder(fontsDir: string, families: string[], workDir: string): Promise<string> {
  let names: string[];
  try {
    names = await readdir(fontsDir);
  } catch {
    return fontsDir;
  }
  const prefixes = families.map((f) => `${f.replace(/\s+/g, '')}-`);
  const chosen = names.filter((n) => /\.(ttf|otf|ttc)$/i.test(n) && prefixes.some((p) => n.startsWith(p)));
  if (chosen.length === 0) return fontsDir;
  const dir = join(workDir, 'fonts');
  await mkdir(dir, { recursive: true });
  for (const n of chosen) await symlink(join(fontsDir, n), join(dir, n));
  return dir;
}

export async function renderKaraokeVideo(input: RenderInput): Promise<void> {
  const [width, height] = VIDEO_RESOLUTIONS[input.options.resolution];
  const duration = input.result.audio.duration;
  const fps = input.options.fps ?? VIDEO_FPS;
  const fontName = fontFor(input.result.language);
  const assName = `${input.output}.ass`;
  await writeFile(
    join(input.workDir, assName),
    buildKaraokeAss(input.result, { ...input.options, width, height, fontName }),
  );
  const fonts = await fontsFolder(input.fontsDir, [fontName, 'Noto Sans'], input.workDir);
  const subs = `subtitles=filename=${filterPath(assName)}:fontsdir=${filterPath(fonts)}`;

  const waveH = Math.round(height / 4 / 2) * 2;
  const waveY =
    input.options.position === 'center' ? height - waveH - Math.round(height * 0.05) : (height - waveH) / 2;
  // Speech peaks well below full scale: the waveform is drawn from the audio raised so its peak reaches
  // full scale (at most +30 dB). The audio track itself is not changed.
  const gainDb = Math.min(30, Math.max(0, -(input.result.audio.peak_dbfs ?? 0)));
  const wave = input.options.show_waveform
    ? {
        y: waveY,
        height: waveH,
        gain: 10 ** (gainDb / 20),
        peaks: await waveformPeaks(input.audioPath, duration, width, input.signal),
      }
    : null;
  const still = `${input.output}.rgb`;
  await writeFile(join(input.workDir, still), stillFrame(width, height, wave));

  // the still frame converted once, then repeated; the playhead crosses the waveform in the audio's time
  const background = `[0:v]format=yuv420p,loop=loop=-1:size=1:start=0`;
  const barW = Math.max(2, Math.round(width / 480));
  const span = Math.max(duration, 0.001).toFixed(3);
  const graph = wave
    ? `color=c=${PLAYHEAD}:s=${barW}x${waveH}:r=${fps},format=yuv420p[bar];${background}[bg];` +
      `[bg][bar]overlay=x='(main_w-overlay_w)*min(t/${span},1)':y=${waveY}:format=yuv420:eof_action=repeat,` +
      `${subs}[v]`
    : `${background},${subs}[v]`;
  const args = [
    '-nostdin',
    '-y',
    '-v',
    'error',
    '-progress',
    'pipe:1',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-s',
    `${width}x${height}`,
    '-framerate',
    String(fps),
    '-i',
    still,
    // the user's file is read as plain audio only, never as a playlist of other files (issue 27)
    ...inputGuard(),
    '-i',
    input.audioPath,
    '-filter_complex',
    graph,
    '-filter_complex_threads',
    '1',
    '-map',
    '[v]',
    '-map',
    '1:a:0',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    // one core per render; no lookahead and no B-frames: mostly still frames gain nothing from them,
    // and they are what held x264's memory (frames queued ahead)
    '-threads',
    '1',
    '-x264-params',
    'rc-lookahead=0:bframes=0',
    '-pix_fmt',
    'yuv420p',
    '-r',
    String(fps),
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-t',
    duration.toFixed(3),
    '-movflags',
    '+faststart',
    input.output,
  ];
  let carry = '';
  await ffmpeg(args, input.workDir, input.signal, (c) => {
    carry += c.toString();
    const lines = carry.split('\n');
    carry = lines.pop() ?? '';
    for (const l of lines) {
      const m = /^out_time_us=(\d+)/.exec(l);
      if (m && duration > 0) input.onProgress(Math.min(1, Number(m[1]) / 1e6 / duration));
    }
  });
}
