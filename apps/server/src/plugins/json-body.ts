// `Content-Type: application/json` with an empty body is what the spec's client sends on every bodiless
// POST (quota/use, sessions/revoke-others, logout without a refresh token...), and what fetch wrappers
// that set the header globally send. Fastify's parser refuses it (FST_ERR_CTP_EMPTY_JSON_BODY); here it
// is no body at all, as without the header, so routes that take none accept it and routes that need one
// answer their usual validation error. Everything else goes through fastify's own parser (prototype
// poisoning checks included).
import type { FastifyInstance } from 'fastify';

export function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    // fastify's own parser answers through `done`; its return value carries nothing
    void parse(request, text, done);
  });
}
