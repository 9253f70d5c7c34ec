// Environment parsed once at boot. Every bad variable is reported together, so an operator fixes them
// in one go instead of one restart per mistake.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { LIMITS } from '@tazamun/contracts/limits';

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

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : null));

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
  ORG_NAME: z.string().default('Tazamun'),
  ORG_URL: optionalText,
  ORG_LOGO_URL: optionalText,
  SUPPORT_EMAIL: optionalText,
  PUBLIC_URL: optionalText,
  AUTH_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
  WEB_DIST: optionalText,
  TRUST_PROXY: bool(false),
});

export type DatabaseTarget =
  | { kind: 'sqlite'; file: string }
  // `file?: never` keeps `target.file` readable (undefined) without narrowing first.
  | { kind: 'postgres'; url: string; file?: never };

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
  orgName: string;
  orgUrl: string | null;
  orgLogoUrl: string | null;
  supportEmail: string | null;
  publicUrl: string;
  authRateLimitPerMinute: number;
  webDist: string | null;
  trustProxy: boolean;
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // `VAR=` (set but empty, as compose files often leave them) means "use the default".
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const parsed = EnvSchema.safeParse(given);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(problems);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  const database = parseDatabaseUrl(e.DATABASE_URL, dataDir);
  if (typeof database === 'string') problems.push(`DATABASE_URL: ${database}`);
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: database as DatabaseTarget,
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
