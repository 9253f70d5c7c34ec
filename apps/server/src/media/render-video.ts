// The MP4 export: a dark background, optional waveform, karaoke subtitles burnt in by libass, an
// optional watermark, H.264 + AAC at 30 or 60 fps. ffmpeg runs as a child process (its own threads do the heavy work); progress comes
// from its -progress output and an abort signal kills it.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { VIDEO_RESOLUTIONS } from '@tazamun/contracts/exports';
import type { VideoRequest } from '@tazamun/contracts/exports';
import { ffmpegPath, inputGuard } from '@tazamun/aligner/audio/decode';
import { resolveLanguage } from '@tazamun/aligner/text/languages';
import { buildKaraokeAss } from './karaoke-ass.ts';
import { JobAborted } from '../jobs/job-queue.ts';

export const VIDEO_FPS = 30;
const BACKGROUND = '0x0B0E14';

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

export async function renderKaraokeVideo(input: RenderInput): Promise<void> {
  const [width, height] = VIDEO_RESOLUTIONS[input.options.resolution];
  const duration = input.result.audio.duration;
  const assName = `${input.output}.ass`;
  await writeFile(
    join(input.workDir, assName),
    buildKaraokeAss(input.result, {
      ...input.options,
      width,
      height,
      fontName: fontFor(input.result.language),
    }),
  );
  const subs = `subtitles=filename=${filterPath(assName)}:fontsdir=${filterPath(input.fontsDir)}`;
  const waveH = Math.round(height / 4 / 2) * 2;
  const waveY =
    input.options.position === 'center' ? height - waveH - Math.round(height * 0.05) : (height - waveH) / 2;
  const fps = input.options.fps ?? VIDEO_FPS;
  // Speech peaks well below full scale and mostly sits far lower: the waveform is drawn from the audio
  // raised so its peak reaches full scale (at most +30 dB), on a square-root scale, so normal speech
  // fills its band instead of drawing a nearly flat line. The audio track itself is not changed.
  const gainDb = Math.min(30, Math.max(0, -(input.result.audio.peak_dbfs ?? 0)));
  const graph = input.options.show_waveform
    ? `[1:a]aformat=channel_layouts=mono,volume=${gainDb.toFixed(2)}dB,` +
      `showwaves=s=${width}x${waveH}:mode=cline:scale=sqrt:rate=${fps}:colors=0x3B82F6[w];` +
      `[0:v][w]overlay=0:${waveY}:eof_action=pass[b];[b]${subs}[v]`
    : `[0:v]${subs}[v]`;
  const args = [
    '-nostdin',
    '-y',
    '-v',
    'error',
    '-progress',
    'pipe:1',
    '-f',
    'lavfi',
    '-i',
    `color=c=${BACKGROUND}:s=${width}x${height}:r=${fps}:d=${duration.toFixed(3)}`,
    // the user's file is read as plain audio only, never as a playlist of other files (issue 27)
    ...inputGuard(),
    '-i',
    input.audioPath,
    '-filter_complex',
    graph,
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
  await new Promise<void>((resolve, reject) => {
    const child = spawn(ffmpegPath(), args, { cwd: input.workDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let carry = '';
    child.stdout.on('data', (c: Buffer) => {
      carry += c.toString();
      const lines = carry.split('\n');
      carry = lines.pop() ?? '';
      for (const l of lines) {
        const m = /^out_time_us=(\d+)/.exec(l);
        if (m && duration > 0) input.onProgress(Math.min(1, Number(m[1]) / 1e6 / duration));
      }
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const onAbort = (): void => {
      child.kill('SIGKILL');
    };
    input.signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', reject);
    child.on('close', (code) => {
      input.signal.removeEventListener('abort', onAbort);
      if (input.signal.aborted) reject(new JobAborted(input.signal.reason));
      else if (code === 0) resolve();
      else
        reject(new Error(`ffmpeg exited with ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}
