// npm run worker has no HTTP server: with METRICS_PORT it serves its own /metrics (its job runs,
// durations, real-time factors, database, pool, queue, disk and Redis state) on that port, for Prometheus
// to scrape each worker. It listens at once, before the worker has its database. With METRICS_TOKEN set
// the scraper must send it as a bearer token, as on the API; without it, keep the port on a private
// interface (HOST) or behind a firewall. A port already taken (two workers on one machine given the same
// METRICS_PORT) is one error line and a retry every few seconds, never a crash: the worker still runs
// jobs, and systemd would otherwise restart it in a loop.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { Metrics } from './metrics.ts';

const RETRY_MS = 5000;

interface Log {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

function authorised(header: string | undefined, token: string | null): boolean {
  if (!token) return true;
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]!);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Serves /metrics on `port`; returns the server at once (it listens as soon as the port is free). */
export function serveMetrics(
  metrics: Metrics,
  options: { port: number; host: string; token: string | null },
  log: Log,
): Server {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (!authorised(req.headers.authorization, options.token)) {
      res.writeHead(401, { 'content-type': 'text/plain' }).end('unauthorised\n');
      return;
    }
    metrics.scrape().then(
      (body) => res.writeHead(200, { 'content-type': metrics.contentType }).end(body),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('scrape failed\n'),
    );
  });
  let told = false;
  let retry: NodeJS.Timeout | null = null;
  const listen = (): void => void server.listen(options.port, options.host);
  server.on('listening', () => log.info({ port: options.port }, 'metrics served'));
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (!told)
      log.error(
        { err: err.message, code: err.code, port: options.port, retry_ms: RETRY_MS },
        'metrics port unavailable: give each worker on a machine its own METRICS_PORT; retrying',
      );
    told = true;
    retry = setTimeout(listen, RETRY_MS);
    retry.unref();
  });
  server.on('close', () => retry && clearTimeout(retry));
  listen();
  return server;
}
