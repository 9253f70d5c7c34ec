// A dependency that is away for a while (PostgreSQL restarting, a failover, the network to it cut) is
// not a bug of the request that met it: such errors answer 503 with Retry-After instead of 500, and a
// process starting while its database is away waits for it instead of exiting.
import { diskFullIn } from './disk-space.ts';

/** What a client (and a load balancer) is told to wait before trying again. */
export const RETRY_AFTER_SECONDS = 5;

// Node's socket errors when the server is gone or going.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

// PostgreSQL SQLSTATEs of a server that cannot take the query now: class 08 (connection exception),
// 57P01-57P03 (shut down by an administrator, crash, still starting), 53300 (too many connections).
const PG_UNAVAILABLE = /^(08...|57P0[123]|53300)$/;

// node-postgres and its pool report a dropped or unreachable server in words, without a code.
const MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error and is not queryable/i,
  /Connection is closed/i,
];

function codeOf(err: object): string | undefined {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** True when `err` (or its cause, or one of an AggregateError's errors) says a dependency is away. */
export function isUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const code = codeOf(err);
  if (code && (NETWORK_CODES.has(code) || PG_UNAVAILABLE.test(code) || code === 'SQLITE_BUSY')) return true;
  const message = (err as { message?: unknown }).message;
  if (typeof message === 'string' && MESSAGES.some((m) => m.test(message))) return true;
  if (err instanceof AggregateError && err.errors.some((e) => isUnavailable(e, depth + 1))) return true;
  return isUnavailable((err as { cause?: unknown }).cause, depth + 1);
}

interface Log {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const backoff = (attempt: number, maxDelayMs: number): number =>
  Math.min(250 * 2 ** Math.min(attempt, 10), maxDelayMs);

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Runs `fn` until it succeeds, waiting a little longer after each failure that `isUnavailable` calls a
 * dependency away (at most `maxDelayMs`); any other error is thrown at once. For start-up: a process
 * whose database is still coming up waits for it, as systemd or a container runtime would otherwise
 * restart it in a loop. One warn line when it starts waiting, one info line when it is over.
 */
export async function retryWhileUnavailable<T>(
  what: string,
  fn: () => Promise<T>,
  log: Log,
  maxDelayMs = 5000,
): Promise<T> {
  const since = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      const r = await fn();
      if (attempt > 1) log.info({ waited_ms: Date.now() - since }, `${what} available`);
      return r;
    } catch (err) {
      if (!isUnavailable(err)) throw err;
      const delay = backoff(attempt, maxDelayMs);
      const line = { err: (err as Error).message, attempt, retry_in_ms: delay };
      if (attempt === 1) log.warn(line, `${what} unavailable; waiting for it`);
      else log.debug(line, `${what} still unavailable`);
      await sleep(delay);
    }
  }
}

/**
 * A write that must land (a finished job's result, its final state): retried while the database, the
 * file store or the disk is away or full, for as long as `signal` allows; any other error is thrown at
 * once, and so is the last one when `signal` ends the wait. The outage itself is logged once by the
 * dependency watch (dependency-watch.ts); each retry here only at debug.
 */
export async function untilWritten<T>(
  fn: () => Promise<T>,
  options: { log: Log; what: string; signal?: AbortSignal; maxDelayMs?: number; context?: object },
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!isTransientWriteError(err) || options.signal?.aborted) throw err;
      const delay = backoff(attempt, options.maxDelayMs ?? 5000);
      options.log.debug(
        { ...options.context, err: (err as Error).message, attempt, retry_in_ms: delay },
        `${options.what}: waiting to write`,
      );
      await sleep(delay, options.signal);
    }
  }
}

/** An error a later attempt may not meet: a dependency away, or a full disk (space may be freed). */
export function isTransientWriteError(err: unknown): boolean {
  return isUnavailable(err) || diskFullIn(err);
}

/**
 * Logs a failure of background work at `level`, unless it is only a dependency being away: that is
 * logged once by the dependency watch when it goes and once when it is back, so each failed attempt
 * during an outage (a heartbeat every 2 s, a poll every second) goes to debug.
 */
export function logFailure(
  log: Log,
  level: 'warn' | 'error',
  err: unknown,
  msg: string,
  context: object = {},
): void {
  if (isUnavailable(err)) log.debug({ ...context, err: (err as Error).message }, msg);
  else log[level]({ ...context, err }, msg);
}
