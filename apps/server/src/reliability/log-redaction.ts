// The access log must not become a store of credentials: the event stream takes its bearer token in
// the query (EventSource cannot send headers), signed audio URLs carry their signature, share links and
// reset links are secrets in the path or query. Fastify logs each request's URL; this serializer writes
// it with those values replaced.
import type { FastifyRequest } from 'fastify';

const REDACTED = '[redacted]';
// query parameters whose value grants access: ?ticket= and ?access_token= (events), ?sig= (audio),
// ?token= (the web app's reset link), and the usual OAuth-style names in case a client sends them
const SECRET_QUERY =
  /([?&](?:access_token|ticket|token|sig|signature|refresh|refresh_token|code|key)=)[^&#]*/gi;
// /api/share/<token>/…: the share token is the whole credential
const SHARE_PATH = /^(\/api\/share\/)[^/?#]+/;

export function redactUrl(url: string): string {
  return url.replace(SHARE_PATH, `$1${REDACTED}`).replace(SECRET_QUERY, `$1${REDACTED}`);
}

/** Fastify's default request fields, with the URL redacted. */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
