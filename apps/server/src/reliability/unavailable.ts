// A dependency that is away for a while (PostgreSQL restarting, a failover, the network to it cut) is
// not a bug of the request that met it: such errors answer 503 with Retry-After instead of 500, and a
// process starting while its database is away waits for it instead of exiting.

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

interface WarnLog {
  warn(obj: object, msg: string): void;
}

/**
 * Runs `fn` until it succeeds, waiting a little longer after each failure that `isUnavailable` calls a
 * dependency away (at most `maxDelayMs`); any other error is thrown at once. For start-up: a process
 * whose database is still coming up waits for it, as systemd or a container runtime would otherwise
 * restart it in a loop.
 */
export async function retryWhileUnavailable<T>(
  what: string,
  fn: () => Promise<T>,
  log: WarnLog,
  maxDelayMs = 5000,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!isUnavailable(err)) throw err;
      const delay = Math.min(250 * 2 ** Math.min(attempt, 10), maxDelayMs);
      log.warn(
        { err: (err as Error).message, attempt, retry_in_ms: delay },
        `${what} unavailable; waiting for it`,
      );
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
