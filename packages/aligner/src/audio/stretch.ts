// Time-stretching without a pitch change (ffmpeg's atempo, WSOLA). Aligning speech slowed to half speed
// gives the HMM twice the frames per phone: fast speech then fits its minimum phone durations (3 frames =
// 30 ms per phone at normal speed) and boundaries fall on a 5 ms grid of the original time.
import { spawn } from 'node:child_process';
import { ffmpegPath, SAMPLE_RATE } from './decode.ts';

export function stretch(samples: Float32Array, tempo: number): Promise<Float32Array> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      ffmpegPath(),
      [
        '-nostdin',
        '-v',
        'error',
        '-f',
        'f32le',
        '-ar',
        String(SAMPLE_RATE),
        '-ac',
        '1',
        '-i',
        'pipe:0',
        '-af',
        `atempo=${tempo}`,
        '-f',
        'f32le',
        '-ar',
        String(SAMPLE_RATE),
        '-ac',
        '1',
        'pipe:1',
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const chunks: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`ffmpeg atempo failed: ${err.trim()}`));
      const buf = Buffer.concat(chunks);
      const out = new Float32Array(Math.floor(buf.length / 4));
      for (let i = 0; i < out.length; i++) out[i] = buf.readFloatLE(i * 4);
      resolve(out);
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength));
  });
}
