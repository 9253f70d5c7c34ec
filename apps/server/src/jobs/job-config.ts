// Settings of the job queue, the worker pool and demo seeding. The variables are declared in config.ts's
// one schema (checked whole at boot by loadConfig); jobConfigOf turns their parsed values into
// config.jobs. Nothing here reads the environment.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../paths.ts';

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
  /** wait before the one retry of a job whose engine failed (doubled per earlier failure) */
  retryBackoffMs: number;
  /** MAX_AUDIO_DURATION: uploads whose probed audio is longer are refused */
  maxAudioSeconds: number;
  /** JOB_DRAIN_TIMEOUT: at a stop, running jobs may finish for this long before they are handed back */
  drainMs: number;
  /** how often idle workers look for queued jobs that another process enqueued */
  pollMs: number;
  /**
   * how often a process running jobs renews its `workers` row (and its jobs' leases, at least every
   * leaseMs/3): a worker whose row is three beats old is shown dead (jobs/worker-registry.ts)
   */
  heartbeatMs: number;
  /** folder of demo recordings to seed the gallery from, or null */
  demoMediaDir: string | null;
  /** seed demos at start-up (the server and worker entries; tests call seeding themselves) */
  seedDemos: boolean;
  /** fonts folder given to libass for the video subtitles */
  fontsDir: string;
  /** MODEL_STORAGE_LIMIT_MB in bytes: what one user's adapted models may take in the store */
  modelStorageLimitBytes: number;
  /** ADAPT_HEAP_MB: the V8 heap of an adaptation's engine thread (its Float32 model copies are outside it) */
  adaptHeapMb: number;
}

export const DEFAULT_DEMO_MEDIA_DIR = resolve(PROJECT_ROOT, '../shared/demo-media');
const NOTO = '/usr/share/fonts/truetype/noto';

/**
 * The parsed variables the job settings come from (config.ts parses them: its Env is passed here, so
 * the compiler holds these fields to the schema's, without this module importing config.ts).
 */
export interface JobEnv {
  WORKER_CONCURRENCY?: number | undefined;
  /** milliseconds, as every duration variable once parsed */
  JOB_TIMEOUT_BASE: number;
  JOB_TIMEOUT_PER_AUDIO_SECOND: number;
  JOB_LEASE: number;
  JOB_MAX_ATTEMPTS: number;
  MAX_AUDIO_DURATION: number;
  JOB_DRAIN_TIMEOUT: number;
  DEMO_MEDIA_DIR?: string | undefined;
  FONTS_DIR?: string | undefined;
  MODEL_STORAGE_LIMIT_MB: number;
  ADAPT_HEAP_MB: number;
}

/**
 * The job settings from their parsed variables. `demoMediaDirGiven`: DEMO_MEDIA_DIR was set (even
 * empty, which turns seeding off); unset means the default folder when it exists. `apiOnly`: the
 * process runs no jobs (`--role=api`).
 */
export function jobConfigOf(
  e: JobEnv,
  { demoMediaDirGiven, apiOnly }: { demoMediaDirGiven: boolean; apiOnly: boolean },
): JobConfig {
  let demoMediaDir: string | null;
  if (demoMediaDirGiven) demoMediaDir = e.DEMO_MEDIA_DIR ? resolve(e.DEMO_MEDIA_DIR) : null;
  else demoMediaDir = existsSync(DEFAULT_DEMO_MEDIA_DIR) ? DEFAULT_DEMO_MEDIA_DIR : null;
  return {
    concurrency: apiOnly ? 0 : (e.WORKER_CONCURRENCY ?? availableParallelism()),
    timeoutBaseMs: e.JOB_TIMEOUT_BASE,
    timeoutPerAudioSecond: e.JOB_TIMEOUT_PER_AUDIO_SECOND,
    leaseMs: e.JOB_LEASE,
    maxAttempts: e.JOB_MAX_ATTEMPTS,
    retryBackoffMs: 2000,
    maxAudioSeconds: e.MAX_AUDIO_DURATION / 1000,
    drainMs: e.JOB_DRAIN_TIMEOUT,
    pollMs: 1000,
    heartbeatMs: 2000,
    demoMediaDir,
    seedDemos: false,
    fontsDir: e.FONTS_DIR ?? (existsSync(NOTO) ? NOTO : join(PROJECT_ROOT, 'fonts')),
    modelStorageLimitBytes: e.MODEL_STORAGE_LIMIT_MB * 1024 * 1024,
    adaptHeapMb: e.ADAPT_HEAP_MB,
  };
}

export function jobTimeoutMs(config: JobConfig, audioSeconds: number): number {
  return Math.round(config.timeoutBaseMs + config.timeoutPerAudioSecond * audioSeconds * 1000);
}
