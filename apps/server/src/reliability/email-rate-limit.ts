// A second rate limit on the routes that take an e-mail address (sign-in, password reset), keyed by
// that address rather than by IP: a botnet spreading guesses for one account over many addresses still
// meets this limit, and a victim's inbox cannot be flooded with reset mails. The lockout after failed
// sign-ins stays as it is; this also caps successful and unknown-address attempts.
// With REDIS_URL the counts live in Redis (one INCR per attempt, keys hashed, expiring with their
// window), so the limit holds across every API process; without it they live in this process. When
// Redis does not answer, the process falls back to its own count rather than refusing every sign-in.
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { createError } from '../errors.ts';

export const EMAIL_LIMITED_ROUTES = ['/api/auth/login/', '/api/auth/password-reset/'];

export class FixedWindowCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly max: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one hit; returns the milliseconds to wait when over the limit, else 0. */
  hit(key: string): number {
    const t = this.now();
    if (this.windows.size > 50_000) this.sweep(t);
    let w = this.windows.get(key);
    if (!w || t - w.start >= this.windowMs) {
      w = { start: t, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    return w.count > this.max ? w.start + this.windowMs - t : 0;
  }

  private sweep(t: number): void {
    for (const [k, w] of this.windows) if (t - w.start >= this.windowMs) this.windows.delete(k);
  }
}

// INCR, start the window on the first hit, and report the count and what is left of the window.
const HIT_SCRIPT = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {c, ttl}
`;

/** The same fixed window, counted in Redis for every process that shares it. */
export class RedisWindowCounter {
  private readonly local: FixedWindowCounter;

  constructor(
    private readonly redis: Redis,
    readonly max: number,
    readonly windowMs: number,
    private readonly prefix: string,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {
    this.local = new FixedWindowCounter(max, windowMs);
  }

  async hit(key: string): Promise<number> {
    // addresses are personal data: Redis sees only a hash
    const k = this.prefix + createHash('sha256').update(key).digest('hex').slice(0, 32);
    try {
      const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, k, this.windowMs)) as [number, number];
      return count > this.max ? Math.max(1, ttl) : 0;
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'rate limit: Redis unavailable, counting locally');
      return this.local.hit(key);
    }
  }
}

export function limitAuthByEmail(
  app: FastifyInstance,
  maxPerMinute: number,
  redis: Redis | null = null,
): void {
  const counter = redis
    ? new RedisWindowCounter(redis, maxPerMinute, 60_000, 'tazamun:rl:email:', app.log)
    : new FixedWindowCounter(maxPerMinute, 60_000);
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || !EMAIL_LIMITED_ROUTES.includes(request.routeOptions.url ?? '')) return;
    const email = (request.body as { email?: unknown } | undefined)?.email;
    if (typeof email !== 'string' || email.trim() === '') return;
    const wait = await counter.hit(email.trim().toLowerCase());
    if (wait > 0) {
      reply.header('retry-after', String(Math.ceil(wait / 1000)));
      throw createError('rate_limited');
    }
  });
}
