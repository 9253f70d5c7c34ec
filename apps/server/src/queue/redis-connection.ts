// The one way this server connects to Redis (REDIS_URL): the BullMQ queue and its worker, the signals'
// publisher and subscriber, and the shared rate-limit counters. Each use has its own profile (how a
// command behaves while Redis is away); they share the reconnection rule and the error listener.
// ioredis is imported here, on the first connection: a process without REDIS_URL never loads it.
import type { Redis, RedisOptions } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { logFailure } from '../reliability/unavailable.ts';

export type RedisRole = 'queue' | 'worker' | 'publisher' | 'subscriber' | 'rate_limits';

/** Reconnect after 200 ms, 400 ms, … at most every 2 s, for ever: Redis coming back is waited for. */
export const reconnectDelay = (attempt: number): number => Math.min(attempt * 200, 2000);

const PROFILES: Record<RedisRole, RedisOptions> = {
  // a producer fails fast while Redis is away (the reconciler covers it) instead of queueing commands
  // in memory
  queue: { enableOfflineQueue: false, maxRetriesPerRequest: 1 },
  // BullMQ's blocking reads must wait for ever
  worker: { maxRetriesPerRequest: null },
  // a wake or an update published while Redis is away is dropped: the poll paths cover it
  publisher: { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true },
  // the subscription is made again on every 'ready' (redis-signals.ts)
  subscriber: { enableOfflineQueue: true, maxRetriesPerRequest: 1, lazyConnect: true },
  // a request waits at most a second for a counter before the limiter lets it through
  rate_limits: { maxRetriesPerRequest: 1, commandTimeout: 1000, connectTimeout: 2000 },
};

/** A connection for `role`; the caller closes it (quit, or disconnect when nothing needs flushing). */
export async function connectRedis(
  url: string,
  role: RedisRole,
  log: Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn' | 'error'>,
): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const connection = new Redis(url, { ...PROFILES[role], retryStrategy: reconnectDelay });
  // connection errors repeat at every reconnect; the dependency watch says once that Redis is away
  connection.on('error', (err: Error) => logFailure(log, 'warn', err, `redis (${role})`));
  return connection;
}
