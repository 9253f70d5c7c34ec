// One log line per request, written when it ends, in place of Fastify's two (disableRequestLogging):
// it names the signed-in user (the user id an operator matches with a complaint), the route template and
// the status. Load-balancer probes and scrapes (/api/health/, /api/ready/, /metrics) log at debug, as
// they arrive every few seconds and say nothing on their own. The same hook feeds the HTTP metrics:
// latency without the event streams (a stream lasts as long as its job, not a request), errors without
// the probes' own 503 and the deliberate refusals (507 disk low, 503 server busy).
import { redactUrl } from '../reliability/log-redaction.ts';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics/metrics.ts';
import { DELIBERATE_CODES, answeredCode } from './error-handler.ts';

const PROBES = new Set(['/api/health/', '/api/ready/', '/metrics']);
/** Server-sent event streams: their route templates end in /events/ */
const STREAM = /\/events\/$/;

export function logRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    // the route's template (bounded label values), not the URL with its ids
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const seconds = reply.elapsedTime / 1000;
    const labels = { method: request.method, route, status_code: String(status) };
    if (!STREAM.test(route)) metrics.httpDuration.observe(labels, seconds);
    const code = answeredCode.get(request);
    const deliberate = PROBES.has(route) || (code !== undefined && DELIBERATE_CODES.has(code));
    if (status >= 500 && !deliberate) metrics.httpErrors.inc(labels);
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
    else if (status >= 500 && !deliberate) request.log.warn(line, 'request completed');
    else request.log.info(line, 'request completed');
  });
}
