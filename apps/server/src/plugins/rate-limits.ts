// Rate limits: per IP address on the routes that set one (@fastify/rate-limit), and per e-mail address
// on sign-in and password reset (reliability/email-rate-limit.ts). With REDIS_URL the counters live in
// Redis and hold across every API process; without it, in this process.
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics/metrics.ts';
import { connectRedis } from '../queue/redis-connection.ts';
import { limitAuthByEmail } from '../reliability/email-rate-limit.ts';

export async function registerRateLimits(
  app: FastifyInstance,
  o: { redisUrl: string | null; emailsPerMinute: number; metrics: Metrics },
): Promise<void> {
  const redis = o.redisUrl ? await connectRedis(o.redisUrl, 'rate_limits', app.log) : null;
  if (redis) {
    o.metrics.addRedis('rate_limits', async () => (await redis.ping()) === 'PONG');
    // counters have nothing to flush, and QUIT would wait for a Redis that may be gone
    app.addHook('onClose', async () => redis.disconnect());
  }
  limitAuthByEmail(app, o.emailsPerMinute, redis);
  await app.register(fastifyRateLimit, {
    global: false,
    ...(redis
      ? // skipOnError: with Redis away a sign-in is let through (the database lockout still applies)
        { redis, nameSpace: 'tazamun:rl:ip:', skipOnError: true }
      : {}),
  });
}
