// npm run worker has no HTTP server: with METRICS_PORT it serves its own /metrics (its job runs,
// durations, real-time factors, pool and Redis state) on that port, for Prometheus to scrape each worker.
// With METRICS_TOKEN set the scraper must send it as a bearer token, as on the API; without it, keep the
// port on a private interface (HOST) or behind a firewall.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { Metrics } from './metrics.ts';

function authorised(header: string | undefined, token: string | null): boolean {
  if (!token) return true;
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]!);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function serveMetrics(
  metrics: Metrics,
  options: { port: number; host: string; token: string | null },
): Promise<Server> {
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
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve(server));
  });
}
