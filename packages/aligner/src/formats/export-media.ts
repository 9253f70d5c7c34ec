// The recording as the read-along page and the EPUB carry it. EPUB 3's core media types for audio are
// MP3 and AAC in MP4, which every browser plays too: an MP3 or an AAC .m4a is kept byte for byte,
// anything else (WAV, Ogg, another codec in MP4) is encoded once to AAC in MP4 with ffmpeg.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffmpegPath, probeWithFfprobe } from '../audio/decode.ts';

export interface ExportMedia {
  bytes: Uint8Array;
  /** audio/mpeg or audio/mp4 */
  mimeType: string;
  /** mp3 or m4a */
  extension: string;
}

/** AAC bit rate of a converted recording: speech stays clear at 96 kb/s, a WAV shrinks about 15 times. */
const AAC_BITRATE = '96k';

function ffmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(ffmpegPath(), args, { maxBuffer: 1024 * 1024 }, (err, _stdout, stderr) => {
      if (err)
        reject(new Error(`ffmpeg could not convert the audio: ${String(stderr).trim().split('\n').at(-1)}`));
      else resolve();
    });
  });
}

/** The audio file at `path`, ready to embed: kept when it is MP3 or AAC/MP4, else converted to AAC. */
export async function portableMedia(path: string): Promise<ExportMedia> {
  const probe = await probeWithFfprobe(path);
  if (probe.codec === 'mp3' && probe.format.split(',').includes('mp3'))
    return { bytes: new Uint8Array(await readFile(path)), mimeType: 'audio/mpeg', extension: 'mp3' };
  if (probe.codec === 'aac' && probe.format.split(',').includes('mp4'))
    return { bytes: new Uint8Array(await readFile(path)), mimeType: 'audio/mp4', extension: 'm4a' };
  const dir = await mkdtemp(join(tmpdir(), 'tazamun-media-'));
  try {
    const out = join(dir, 'audio.m4a');
    // faststart: the index goes first, so a reader can play before it has read the whole file
    await ffmpeg([
      '-v',
      'error',
      '-i',
      path,
      '-vn',
      '-c:a',
      'aac',
      '-b:a',
      AAC_BITRATE,
      '-movflags',
      '+faststart',
      out,
    ]);
    return { bytes: new Uint8Array(await readFile(out)), mimeType: 'audio/mp4', extension: 'm4a' };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
