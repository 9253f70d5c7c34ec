// A second rate limit on the routes that take an e-mail address (sign-in, password reset), keyed by
// that address rather than by IP: a botnet spreading guesses for one account over many addresses still
// meets this limit, and a victim's inbox cannot be flooded with reset mails. The lockout after failed
// sign-ins stays as it is; this also caps successful and unknown-address attempts.
// Counts live in this process: with several API processes behind a balancer each one counts apart,
// so the effective limit is the limit times the processes (see docs/reliability.md).
import type { FastifyInstance } from 'fastify';
import { readEnv } from '../config.ts';
import { createError } from '../errors.ts';

export const EMAIL_LIMITED_ROUTES = ['/api/auth/login/', '/api/auth/password-reset/'];

/** AUTH_EMAIL_RATE_LIMIT: attempts per address per minute (default 20). */
export function emailRateLimitFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return readEnv(env, ['AUTH_EMAIL_RATE_LIMIT']).AUTH_EMAIL_RATE_LIMIT;
}

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

export function limitAuthByEmail(app: FastifyInstance, maxPerMinute: number): void {
  const counter = new FixedWindowCounter(maxPerMinute, 60_000);
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || !EMAIL_LIMITED_ROUTES.includes(request.routeOptions.url ?? '')) return;
    const email = (request.body as { email?: unknown } | undefined)?.email;
    if (typeof email !== 'string' || email.trim() === '') return;
    const wait = counter.hit(email.trim().toLowerCase());
    if (wait > 0) {
      reply.header('retry-after', String(Math.ceil(wait / 1000)));
      throw createError('rate_limited');
    }
  });
}
