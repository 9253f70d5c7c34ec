// Settings of the job queue, the worker pool and demo seeding, parsed from the environment once at boot
// (every bad variable listed together, like config.ts). Kept apart from config.ts, which the accounts
// code owns; buildApp takes it as an option and reads the environment only when none is given.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ConfigError, parseDuration } from '../config.ts';

export interface JobConfig {
  /** worker threads running jobs in this process; 0 = this process only enqueues (role=api) */
  concurrency: number;
  /** per-job time limit = base + perAudioSecond × audio duration */
  timeoutBaseMs: number;
  timeoutPerAudioSecond: number;
  /** how long a claimed job stays owned without a heartbeat before another worker may run it again */
  leaseMs: number;
  /** runs of one job (first run + retries after crashes or restarts) */
  maxAttempts: number;
  /** how often idle workers look for queued jobs that another process enqueued */
  pollMs: number;
  /** folder of demo recordings to seed the gallery from, or null */
  demoMediaDir: string | null;
  /** seed demos at start-up (the server and worker entries; tests call seeding themselves) */
  seedDemos: boolean;
  /** fonts folder given to libass for the video subtitles */
  fontsDir: string;
}

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const DEFAULT_DEMO_MEDIA_DIR = resolve(REPO_ROOT, '../shared/demo-media');
const NOTO = '/usr/share/fonts/truetype/noto';

const positiveDuration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx) => {
      const ms = parseDuration(v);
      if (ms === null || ms <= 0) {
        ctx.addIssue({ code: 'custom', message: `expected a duration like 60s or 2m, got "${v}"` });
        return z.NEVER;
      }
      return ms;
    });

const JobEnv = z.object({
  WORKER_CONCURRENCY: z.coerce.number().int().min(0).max(64).optional(),
  JOB_TIMEOUT_BASE: positiveDuration('60s'),
  JOB_TIMEOUT_PER_AUDIO_SECOND: z.coerce.number().min(0).max(100).default(2),
  JOB_LEASE: positiveDuration('30s'),
  JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  DEMO_MEDIA_DIR: z.string().optional(),
  FONTS_DIR: z.string().optional(),
});

export function loadJobConfig(
  env: NodeJS.ProcessEnv = process.env,
  argv: readonly string[] = process.argv,
): JobConfig {
  const parsed = JobEnv.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const apiOnly = argv.includes('--role=api');
  let demoMediaDir: string | null;
  if (e.DEMO_MEDIA_DIR !== undefined) {
    demoMediaDir = e.DEMO_MEDIA_DIR.trim() === '' ? null : resolve(e.DEMO_MEDIA_DIR);
  } else demoMediaDir = existsSync(DEFAULT_DEMO_MEDIA_DIR) ? DEFAULT_DEMO_MEDIA_DIR : null;
  return {
    concurrency: apiOnly ? 0 : (e.WORKER_CONCURRENCY ?? availableParallelism()),
    timeoutBaseMs: e.JOB_TIMEOUT_BASE,
    timeoutPerAudioSecond: e.JOB_TIMEOUT_PER_AUDIO_SECOND,
    leaseMs: e.JOB_LEASE,
    maxAttempts: e.JOB_MAX_ATTEMPTS,
    pollMs: 1000,
    demoMediaDir,
    seedDemos: false,
    fontsDir: e.FONTS_DIR ?? (existsSync(NOTO) ? NOTO : join(REPO_ROOT, 'fonts')),
  };
}

export function jobTimeoutMs(config: JobConfig, audioSeconds: number): number {
  return Math.round(config.timeoutBaseMs + config.timeoutPerAudioSecond * audioSeconds * 1000);
}
