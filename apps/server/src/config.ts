// Environment parsed once at boot. One schema holds every variable the server, the worker and the job,
// Redis, storage and rate-limit modules read, so loadConfig() at start reports every bad variable
// together (the entry points exit 78) instead of one restart per mistake, wherever it is used. It is the
// only reader of the environment: the modules take their slice of the returned Config (config.jobs,
// config.redisUrl, config.s3, …) and never parse a variable themselves.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { availableParallelism } from 'node:os';
import { isIP } from 'node:net';
import { JOB_BOUNDS } from '@tazamun/contracts/job-bounds';
import { LIMITS } from '@tazamun/contracts/limits';
import { BATCH_LIMITS } from '@tazamun/contracts/projects';
import { MODEL_LIMITS } from '@tazamun/contracts/models';
import { checkKey } from './storage/storage.ts';
import type { S3StoreConfig } from './storage/s3-file-store.ts';
import type { ConnectionLimits } from './reliability/connection-limits.ts';
import { jobConfigOf } from './jobs/job-config.ts';
import type { JobConfig } from './jobs/job-config.ts';

const DURATION = /^(\d+)\s*(ms|s|m|h|d)?$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** "15m", "14d", "900s" or plain seconds → milliseconds. */
export function parseDuration(text: string): number | null {
  const m = DURATION.exec(text.trim());
  if (!m) return null;
  const unit = (m[2] ?? 's') as keyof typeof UNIT_MS;
  return Number(m[1]) * UNIT_MS[unit];
}

const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx) => {
      const ms = parseDuration(v);
      if (ms === null || ms <= 0) {
        ctx.addIssue({
          code: 'custom',
          message: `expected a duration like 15m, 14d or 900 (seconds), got "${v}"`,
        });
        return z.NEVER;
      }
      return ms;
    });

/** A duration that may be 0 (a feature turned off). */
const durationOrZero = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx) => {
      const ms = parseDuration(v);
      if (ms === null) {
        ctx.addIssue({ code: 'custom', message: `expected a duration like 30s, 5m or 0, got "${v}"` });
        return z.NEVER;
      }
      return ms;
    });

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : null));

/** An address (IPv4 or IPv6) or a network in CIDR notation, e.g. 10.0.0.5 or 10.0.0.0/8. */
function isAddressOrNetwork(text: string): boolean {
  const [address, bits, ...rest] = text.split('/');
  if (rest.length > 0 || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

// TRUST_PROXY: false (the client's own address), the addresses of the reverse proxies in front
// (comma-separated addresses or CIDR networks: X-Forwarded-For is believed only from them), or true
// (believed from anyone: only when nothing but the proxy can reach the port).
const trustProxy = z
  .string()
  .default('false')
  .transform((v, ctx): boolean | string[] => {
    const t = v.trim().toLowerCase();
    if (['true', '1', 'yes'].includes(t)) return true;
    if (['false', '0', 'no', ''].includes(t)) return false;
    const list = v
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    const bad = list.filter((x) => !isAddressOrNetwork(x));
    if (bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `expected true, false or the proxies' addresses (e.g. 127.0.0.1,10.0.0.0/8); not an address: ${bad.join(', ')}`,
      });
      return z.NEVER;
    }
    return list;
  });

const positiveInt = (fallback: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(1).max(max).default(fallback);

export const DEFAULT_DATABASE_POOL_MAX = 10;

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const optionalHttpUrl = optionalText.refine((v) => v === null || isHttpUrl(v), {
  message: 'must be an http:// or https:// URL',
});

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL: duration('15m'),
  REFRESH_TOKEN_TTL: duration('14d'),
  REMEMBER_ME_TTL: duration('60d'),
  PASSWORD_RESET_TTL: duration('1h'),
  AUTO_APPROVE: bool(false),
  DEFAULT_DAILY_QUOTA: z.coerce.number().int().min(0).default(LIMITS.defaultDailyQuota),
  CORS_ORIGIN: optionalText,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ORG_NAME: optionalText,
  ORG_URL: optionalText,
  ORG_LOGO_URL: optionalText,
  SUPPORT_EMAIL: optionalText,
  PUBLIC_URL: optionalText,
  AUTH_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
  WEB_DIST: optionalText,
  TRUST_PROXY: trustProxy,
  // sign-in and reset attempts per e-mail address per minute (reliability/email-rate-limit.ts)
  AUTH_EMAIL_RATE_LIMIT: positiveInt(20),
  // each process's PostgreSQL pool (db/postgres.ts)
  DATABASE_POOL_MAX: positiveInt(DEFAULT_DATABASE_POOL_MAX, 1000),
  // the job queue (jobs/job-config.ts)
  WORKER_CONCURRENCY: z.coerce.number().int().min(0).max(64).optional(),
  JOB_TIMEOUT_BASE: duration('60s'),
  JOB_TIMEOUT_PER_AUDIO_SECOND: z.coerce.number().min(0).max(100).default(2),
  JOB_LEASE: duration('30s'),
  JOB_MAX_ATTEMPTS: positiveInt(3, 10),
  // SIGTERM: how long running jobs may go on before they are handed back (0: hand back at once)
  JOB_DRAIN_TIMEOUT: durationOrZero('0s'),
  // the longest probed audio an upload may have (packages/contracts/src/job-bounds.ts has the other bounds)
  MAX_AUDIO_DURATION: duration(`${JOB_BOUNDS.defaultMaxAudioSeconds}s`),
  // adapted acoustic models (ADR 0070): what one user's models may take, and an adaptation's heap
  MODEL_STORAGE_LIMIT_MB: z.coerce.number().min(0).max(10_000_000).default(MODEL_LIMITS.defaultStorageMb),
  ADAPT_HEAP_MB: z.coerce.number().int().min(256).max(65_536).default(1024),
  DEMO_MEDIA_DIR: z.string().optional(),
  FONTS_DIR: z.string().optional(),
  // Redis signals and queue (queue/redis-signals.ts)
  REDIS_URL: optionalText.refine((v) => v === null || /^rediss?:\/\/./.test(v), {
    message: 'must start with redis:// or rediss://',
  }),
  // files in an S3-compatible bucket (storage/s3-file-store.ts)
  S3_BUCKET: optionalText,
  S3_ENDPOINT: optionalHttpUrl,
  S3_REGION: z.string().default('us-east-1'),
  S3_FORCE_PATH_STYLE: bool(false),
  S3_PREFIX: optionalText,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  // upload checks: ffprobe runs at once and waiting uploads (routes/alignments/probe-gate.ts)
  UPLOAD_PROBE_CONCURRENCY: positiveInt(2 * availableParallelism(), 256),
  UPLOAD_PROBE_QUEUE: z.coerce.number().int().min(0).max(100_000).default(64),
  // where users get the Corresponding Source (AGPL §13); unset: the server packs its own tree
  // (routes/source). A link the web app renders, so only http(s), never javascript: or file:.
  SOURCE_URL: optionalHttpUrl,
  // GET /metrics (routes/system/metrics-route.ts): off unless a scraper's bearer token is set
  METRICS_TOKEN: optionalText.refine((v) => v === null || v.length >= 16, {
    message: 'must be at least 16 characters',
  }),
  // npm run worker: serve /metrics on this port (the workers have no HTTP server otherwise)
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  // slow and greedy clients (reliability/connection-limits.ts)
  HEADERS_TIMEOUT: duration('15s'),
  REQUEST_TIMEOUT: duration('5m'),
  SOCKET_TIMEOUT: duration('60s'),
  // longer than the usual 60 s idle timeout of a reverse proxy, so the proxy closes first
  KEEP_ALIVE_TIMEOUT: duration('72s'),
  MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(0).max(1_000_000).default(64),
  // uploads are refused with 507 below this much free space on DATA_DIR's disk (reliability/disk-space.ts)
  MIN_FREE_DISK_MB: z.coerce.number().int().min(0).max(10_000_000).default(512),
  // every file part of one batch request together (corpus/receive-batch.ts)
  BATCH_MAX_MB: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(BATCH_LIMITS.maxRequestBytes / (1024 * 1024)),
});

export type Env = z.infer<typeof EnvSchema>;
export type EnvKey = keyof typeof EnvSchema.shape;

export type DatabaseTarget =
  | { kind: 'sqlite'; file: string }
  // `file?: never` keeps `target.file` readable (undefined) without narrowing first. poolMax is
  // DATABASE_POOL_MAX as loadConfig parsed it; hand-built targets (tests) take the default.
  | { kind: 'postgres'; url: string; poolMax?: number; file?: never };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseTarget;
  /** null until resolveJwtSecret() fills it at boot. */
  jwtSecret: string | null;
  accessTokenTtlMs: number;
  refreshTokenTtlMs: number;
  rememberMeTtlMs: number;
  passwordResetTtlMs: number;
  autoApprove: boolean;
  defaultDailyQuota: number;
  corsOrigin: string[] | null;
  logLevel: string;
  orgName: string | null;
  orgUrl: string | null;
  orgLogoUrl: string | null;
  supportEmail: string | null;
  publicUrl: string;
  authRateLimitPerMinute: number;
  webDist: string | null;
  /** false, the proxies' addresses and networks (X-Forwarded-For believed from them only), or true */
  trustProxy: boolean | string[];
  /** S3_BUCKET and friends: files in an S3-compatible bucket; null: DATA_DIR/files */
  s3: S3StoreConfig | null;
  /** REDIS_URL; null: the queue and the rate limits run on the database and in this process */
  redisUrl: string | null;
  /** AUTH_EMAIL_RATE_LIMIT */
  authEmailRateLimit: number;
  /** UPLOAD_PROBE_CONCURRENCY / UPLOAD_PROBE_QUEUE */
  uploadProbe: { concurrency: number; queue: number };
  /** SOURCE_URL; null: GET /api/source/ serves the running tree */
  sourceUrl: string | null;
  /** METRICS_TOKEN: the bearer token of GET /metrics; null: /metrics is off (404) */
  metricsToken: string | null;
  /** METRICS_PORT: the worker's own /metrics listener; null: none */
  metricsPort: number | null;
  /** HEADERS_TIMEOUT, REQUEST_TIMEOUT, SOCKET_TIMEOUT, KEEP_ALIVE_TIMEOUT, MAX_CONNECTIONS_PER_IP */
  connectionLimits: ConnectionLimits;
  /** MIN_FREE_DISK_MB in bytes (0: no margin) */
  minFreeDiskBytes: number;
  /** BATCH_MAX_MB in bytes: the file parts of one batch request together (the zip, or audio + text) */
  batchMaxBytes: number;
  /** the job queue, the worker pool and demo seeding (WORKER_CONCURRENCY, JOB_*, MAX_AUDIO_DURATION, …) */
  jobs: JobConfig;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Accepts `postgres://…`/`postgresql://…`, `sqlite:PATH`, `sqlite://PATH`, `file:PATH` or a bare path. */
export function parseDatabaseUrl(url: string | undefined, dataDir: string): DatabaseTarget | string {
  if (!url || url.trim() === '') return { kind: 'sqlite', file: join(dataDir, 'tazamun.sqlite') };
  const u = url.trim();
  if (/^postgres(ql)?:\/\//.test(u)) {
    try {
      new URL(u);
    } catch {
      return `"${u.replace(/:[^:@/]*@/, ':***@')}" is not a valid PostgreSQL URL`;
    }
    return { kind: 'postgres', url: u };
  }
  const m = /^(?:sqlite|file):(?:\/\/)?(.+)$/.exec(u);
  const path = m ? m[1]! : u;
  if (/^[a-z]+:\/\//i.test(path)) return `unsupported database URL scheme in "${u}"`;
  if (path === ':memory:')
    return 'an in-memory database would lose every account at restart; give a file path';
  return { kind: 'sqlite', file: isAbsolute(path) ? path : resolve(path) };
}

// `VAR=` (set but empty, as compose files often leave them) means "use the default".
function given(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1].trim() !== ''),
  );
}

const problemsOf = (error: z.ZodError): string[] =>
  error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);

type S3Key = Extract<EnvKey, `S3_${string}`>;

/** The S3 rules that span variables; on raw values, so they are listed even beside schema problems. */
function s3Problems(v: { [K in S3Key]?: string | null | boolean }): string[] {
  if (!v.S3_BUCKET) return [];
  const problems: string[] = [];
  if (!v.S3_ACCESS_KEY_ID !== !v.S3_SECRET_ACCESS_KEY)
    problems.push('S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: must be given together');
  if (typeof v.S3_PREFIX === 'string' && v.S3_PREFIX.trim()) {
    try {
      checkKey(v.S3_PREFIX.trim(), { prefix: true });
    } catch (err) {
      problems.push(`S3_PREFIX: ${(err as Error).message}`);
    }
  }
  return problems;
}

/** S3_BUCKET switches files to S3; the rest is optional. Returns null when S3 is not configured. */
function s3ConfigOf(e: Pick<Env, S3Key>): S3StoreConfig | null {
  if (!e.S3_BUCKET) return null;
  const problems = s3Problems(e);
  if (problems.length) throw new ConfigError(problems);
  const id = e.S3_ACCESS_KEY_ID;
  const secret = e.S3_SECRET_ACCESS_KEY;
  const prefix = e.S3_PREFIX ?? '';
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION.trim() || 'us-east-1',
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
    credentials: id && secret ? { accessKeyId: id, secretAccessKey: secret } : null,
  };
}

/**
 * Every variable checked at once; the server, the worker and the CLI call this first. `defaults` stand
 * in for variables that are unset or empty, for an entry point whose own default differs (the admin
 * CLI's LOG_LEVEL); they go through the schema like any value. `argv` is the entry point's command line
 * (`--role=api`: this process only enqueues).
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  defaults: Partial<Record<EnvKey, string>> = {},
  argv: readonly string[] = [],
): Config {
  const raw = { ...given(defaults), ...given(env) };
  const parsed = EnvSchema.safeParse(raw);
  const problems = parsed.success ? [] : problemsOf(parsed.error);
  // The checks beyond the schema run even when it failed, so their problems are listed too.
  const dataDir = resolve(parsed.data?.DATA_DIR ?? raw.DATA_DIR ?? './data');
  const database = parseDatabaseUrl(raw.DATABASE_URL, dataDir);
  if (typeof database === 'string') problems.push(`DATABASE_URL: ${database}`);
  problems.push(...s3Problems(raw));
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  const s3 = s3ConfigOf(e);
  const target = database as DatabaseTarget;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: target.kind === 'postgres' ? { ...target, poolMax: e.DATABASE_POOL_MAX } : target,
    jwtSecret: e.JWT_SECRET ?? null,
    accessTokenTtlMs: e.ACCESS_TOKEN_TTL,
    refreshTokenTtlMs: e.REFRESH_TOKEN_TTL,
    rememberMeTtlMs: Math.max(e.REMEMBER_ME_TTL, e.REFRESH_TOKEN_TTL),
    passwordResetTtlMs: e.PASSWORD_RESET_TTL,
    autoApprove: e.AUTO_APPROVE,
    defaultDailyQuota: e.DEFAULT_DAILY_QUOTA,
    corsOrigin: e.CORS_ORIGIN ? e.CORS_ORIGIN.split(',').map((s) => s.trim()) : null,
    logLevel: e.LOG_LEVEL,
    orgName: e.ORG_NAME,
    orgUrl: e.ORG_URL,
    orgLogoUrl: e.ORG_LOGO_URL,
    supportEmail: e.SUPPORT_EMAIL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT,
    webDist: e.WEB_DIST ? resolve(e.WEB_DIST) : null,
    trustProxy: e.TRUST_PROXY,
    s3,
    redisUrl: e.REDIS_URL,
    authEmailRateLimit: e.AUTH_EMAIL_RATE_LIMIT,
    uploadProbe: { concurrency: e.UPLOAD_PROBE_CONCURRENCY, queue: e.UPLOAD_PROBE_QUEUE },
    sourceUrl: e.SOURCE_URL,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT ?? null,
    connectionLimits: {
      headersTimeoutMs: Math.min(e.HEADERS_TIMEOUT, e.REQUEST_TIMEOUT),
      requestTimeoutMs: e.REQUEST_TIMEOUT,
      socketTimeoutMs: e.SOCKET_TIMEOUT,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT,
      maxConnectionsPerIp: e.MAX_CONNECTIONS_PER_IP,
    },
    minFreeDiskBytes: e.MIN_FREE_DISK_MB * 1024 * 1024,
    batchMaxBytes: e.BATCH_MAX_MB * 1024 * 1024,
    // DEMO_MEDIA_DIR= (set but empty) turns seeding off; unset means the default folder when present
    jobs: jobConfigOf(e, {
      demoMediaDirGiven: env.DEMO_MEDIA_DIR !== undefined,
      apiOnly: argv.includes('--role=api'),
    }),
  };
}

/**
 * `npm start` must work with no configuration, so a missing JWT_SECRET is generated once and kept in
 * DATA_DIR/secret (mode 0600); tokens then survive restarts. Returns whether it was generated now.
 */
export function resolveJwtSecret(config: Config): { secret: string; source: 'env' | 'file' | 'generated' } {
  if (config.jwtSecret) return { secret: config.jwtSecret, source: 'env' };
  const file = join(config.dataDir, 'secret');
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length >= 32) return { secret, source: 'file' };
  }
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return { secret, source: 'generated' };
}
