// One log line per request, written when it ends, in place of Fastify's two (disableRequestLogging):
// it names the signed-in user (the user id an operator matches with a complaint), the route template and
// the status. Load-balancer probes and scrapes (/api/health/, /api/ready/, /metrics) log at debug, as
// they arrive every few seconds and say nothing on their own. The same hook feeds the HTTP metrics.
import { redactUrl } from '../reliability/log-redaction.ts';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics/metrics.ts';

const PROBES = new Set(['/api/health/', '/api/ready/', '/metrics']);

export function logRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    // the route's template (bounded label values), not the URL with its ids
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const seconds = reply.elapsedTime / 1000;
    const labels = { method: request.method, route, status_code: String(status) };
    metrics.httpDuration.observe(labels, seconds);
    if (status >= 500) metrics.httpErrors.inc(labels);
    const line = {
      method: request.method,
      // every secret a URL can carry (?access_token=, ?sig=, share tokens), as the request serializer does
      url: redactUrl(request.url),
      route,
      status,
      ms: Math.round(reply.elapsedTime),
      user: request.auth?.user.id ?? null,
    };
    if (PROBES.has(route)) request.log.debug(line, 'request completed');
    else if (status >= 500) request.log.warn(line, 'request completed');
    else request.log.info(line, 'request completed');
  });
}
