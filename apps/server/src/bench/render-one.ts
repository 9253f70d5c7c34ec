// One karaoke render for `npm run bench:platform` (bench/platform.ts starts it pinned to one core with
// taskset): reads {result, audio, options} from the JSON file named on the command line, renders the MP4
// with the server's own renderer (or TAZAMUN_RENDERER's, another checkout's), and prints one JSON line with the wall time and the peak resident
// memory of the ffmpeg processes it started (read from /proc while they run: VmHWM, the high-water mark),
// and their CPU time (what a busy shared machine changes least).
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { VideoRequest } from '@tazamun/contracts/exports';
import type { renderKaraokeVideo as Render } from '../media/render-video.ts';

interface RenderJob {
  result: string;
  audio: string;
  options: Record<string, unknown>;
  fontsDir: string;
}

/** Children of this process and theirs, by pid (the renderer may start ffmpeg more than once). */
function descendants(pid: number): number[] {
  const out: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const task of tasks) {
    let children = '';
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const c of children.split(/\s+/).filter(Boolean)) out.push(Number(c), ...descendants(Number(c)));
  }
  return out;
}

/** CPU seconds (user + system) of this process's children that have ended: /proc/self/stat cutime, cstime. */
function childCpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // after the command name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14 here
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

function highWaterKb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

// TAZAMUN_RENDERER: another checkout's renderer (bench:platform --compare)
const { renderKaraokeVideo } = (await import(process.env.TAZAMUN_RENDERER ?? '../media/render-video.ts')) as {
  renderKaraokeVideo: typeof Render;
};
const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as RenderJob;
const result = JSON.parse(readFileSync(job.result, 'utf8')) as AlignmentResult;
const workDir = mkdtempSync(join(tmpdir(), 'tazamun-render-bench-'));
const peaks = new Map<number, number>();
const sample = (): void => {
  for (const pid of descendants(process.pid)) peaks.set(pid, Math.max(peaks.get(pid) ?? 0, highWaterKb(pid)));
};
const poll = setInterval(sample, 20);
const cpu0 = childCpuSeconds();
const t0 = process.hrtime.bigint();
try {
  await renderKaraokeVideo({
    result,
    audioPath: job.audio,
    workDir,
    output: 'bench.mp4',
    options: VideoRequest.parse(job.options),
    fontsDir: job.fontsDir,
    signal: new AbortController().signal,
    onProgress: sample,
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = childCpuSeconds() - cpu0;
  clearInterval(poll);
  const size = statSync(join(workDir, 'bench.mp4')).size;
  console.log(
    JSON.stringify({
      seconds,
      cpu_seconds: Number(cpu.toFixed(2)),
      audio_seconds: result.audio.duration,
      peak_ffmpeg_kb: Math.max(0, ...peaks.values()),
      processes: peaks.size,
      bytes: size,
    }),
  );
} finally {
  clearInterval(poll);
  if (process.env.KEEP_RENDER) execFileSync('cp', [join(workDir, 'bench.mp4'), process.env.KEEP_RENDER]);
  rmSync(workDir, { recursive: true, force: true });
}
