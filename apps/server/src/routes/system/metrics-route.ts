// GET /metrics in the Prometheus text format. Off unless METRICS_TOKEN is set (404 then, like any
// unknown path); with it, the scraper sends `Authorization: Bearer <METRICS_TOKEN>`. The figures say
// how busy the deployment is and which routes fail, which is not for everyone to read.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createError } from '../../errors.ts';

function bearerMatches(request: FastifyRequest, token: string): boolean {
  const m = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]!);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function metricsRoute(app: FastifyInstance): Promise<void> {
  const token = app.deps.config.metricsToken;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!token) throw createError('not_found');
    if (!bearerMatches(request, token)) throw createError('token_invalid');
    const body = await app.metrics.scrape();
    return reply.type(app.metrics.contentType).send(body);
  });
}
