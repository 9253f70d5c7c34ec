// The one error handler: catalogue errors, schema validation failures and framework errors all leave
// as ErrorBody; a 5xx never carries its internal message, only the request id to quote to support.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERRORS, errorMessage } from '@tazamun/contracts/errors';
import type { ErrorCode } from '@tazamun/contracts/errors';
import { AppError, FIELD_MESSAGES } from '../errors.ts';
import type { FieldErrors } from '../errors.ts';
import { requestLanguage } from './language.ts';
import { isUnavailable, RETRY_AFTER_SECONDS } from '../reliability/unavailable.ts';
import { diskFullIn } from '../reliability/disk-space.ts';

/**
 * 5xx answers given on purpose: the disk is low (507) or the upload queue is full (503 server_busy).
 * The server is doing its job; they are logged where they are decided, at warn, and are not counted
 * as HTTP errors (plugins/request-log.ts).
 */
export const DELIBERATE_CODES: ReadonlySet<ErrorCode> = new Set(['insufficient_storage', 'server_busy']);

/** The catalogue code each request was answered with, when it was an error (for the request log). */
export const answeredCode = new WeakMap<FastifyRequest, ErrorCode>();

interface ZodIssueLike {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Field messages keep the keywords the web client matches ('required', 'blank', 'invalid'...). */
function issueMessage(issue: ZodIssueLike): string {
  const p = issue.params;
  switch (issue.keyword) {
    case 'invalid_type':
      return /received undefined/.test(issue.message ?? '')
        ? FIELD_MESSAGES.required
        : `This value is invalid: expected ${String(p.expected)}.`;
    case 'too_small':
      if (p.origin === 'string' && p.minimum === 1) return FIELD_MESSAGES.blank;
      if (p.origin === 'string') return `Ensure this field has at least ${String(p.minimum)} characters.`;
      return `This value is invalid: it must be at least ${String(p.minimum)}.`;
    case 'too_big':
      if (p.origin === 'string') return FIELD_MESSAGES.tooLong(Number(p.maximum));
      return `This value is invalid: it must be at most ${String(p.maximum)}.`;
    case 'invalid_value':
      return Array.isArray(p.values)
        ? `This choice is invalid; expected one of: ${p.values.map(String).join(', ')}.`
        : FIELD_MESSAGES.invalid;
    case 'unrecognized_keys':
      return `Unknown field(s) are invalid here: ${Array.isArray(p.keys) ? p.keys.join(', ') : ''}.`;
    default:
      return FIELD_MESSAGES.invalid;
  }
}

export function validationFields(issues: ZodIssueLike[]): { fields: FieldErrors; nonField: string[] } {
  const fields: FieldErrors = {};
  const nonField: string[] = [];
  for (const issue of issues) {
    const path = issue.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
    const msg = issueMessage(issue);
    if (path === '' || issue.keyword === 'unrecognized_keys') {
      nonField.push(
        issue.keyword === 'invalid_type' && path === '' ? 'The request body is missing or invalid.' : msg,
      );
    } else (fields[path] ??= []).push(msg);
  }
  return { fields, nonField };
}

function send(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  params: Record<string, string | number> = {},
  extra: Record<string, unknown> = {},
): FastifyReply {
  const status = ERRORS[code].status;
  answeredCode.set(request, code);
  const body: Record<string, unknown> = {
    code,
    detail: errorMessage(code, requestLanguage(request), params),
    ...extra,
  };
  if (status >= 500) body.request_id = request.id;
  // a load balancer or client told when to come back; routes that know better set their own
  if (status === 503 && !reply.hasHeader('retry-after'))
    reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** Framework error codes (fastify, multipart, rate-limit) mapped onto the catalogue. */
const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'file_too_large',
  FST_REQ_FILE_TOO_LARGE: 'file_too_large',
  FST_PARTS_LIMIT: 'file_too_large',
  FST_FILES_LIMIT: 'bad_request',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'bad_request',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'bad_request',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'bad_request',
  FST_ERR_CTP_INVALID_JSON_BODY: 'bad_request',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_ERR_BAD_URL: 'bad_request',
  FST_ERR_MAX_PARAM_LENGTH: 'bad_request',
};

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      // a 503 while the database is not there yet (app.ts): the outage is the dependency watch's line
      if (error.code === 'service_unavailable')
        request.log.debug({ code: error.code }, 'service unavailable');
      else if (error.status >= 500 && !DELIBERATE_CODES.has(error.code))
        request.log.error({ err: error }, 'application error');
      return send(request, reply, error.code, error.params, error.extra);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const { fields, nonField } = validationFields(error.validation as unknown as ZodIssueLike[]);
      const extra: Record<string, unknown> = { ...fields };
      if (nonField.length) extra.non_field_errors = nonField;
      return send(request, reply, 'validation_error', {}, extra);
    }
    if (diskFullIn(error)) {
      // not a bug: the disk (or the database's) is full; readiness and the disk gauge say so too
      request.log.warn({ err: error.message, code: error.code }, 'disk full');
      return send(request, reply, 'insufficient_storage');
    }
    const status = error.statusCode ?? 500;
    const mapped = error.code ? FRAMEWORK_CODES[error.code] : undefined;
    if (mapped === 'file_too_large') {
      const limit = request.routeOptions.bodyLimit;
      return send(request, reply, mapped, { size: limit ? byteSize(limit) : 'the allowed size' });
    }
    if (mapped) return send(request, reply, mapped, {}, { non_field_errors: [error.message] });
    if (status === 429) return send(request, reply, 'rate_limited');
    if (status === 404) return send(request, reply, 'not_found');
    if (status === 405) return send(request, reply, 'method_not_allowed');
    if (status >= 400 && status < 500) {
      return send(request, reply, 'bad_request', {}, { non_field_errors: [error.message] });
    }
    if (isUnavailable(error)) {
      // the database or Redis is away (restarting): the client retries. The outage itself is logged once
      // by the dependency watch; the request's own line (request-log.ts) shows the 503.
      request.log.debug({ err: error.message, code: error.code }, 'dependency unavailable');
      return send(request, reply, 'service_unavailable');
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(request, reply, 'internal_error');
  });

  // 405 for a known API path asked with another method: the patterns of every route are kept here as
  // they are added (this runs before any route is registered), with their methods.
  const routes: { pattern: RegExp; methods: Set<string> }[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.includes('*')) return;
    // a plugin's '/' route answers on its prefix with and without the trailing slash
    const root = route.prefix !== '' && route.url.replace(/\/$/, '') === route.prefix;
    const url = root ? route.prefix : route.url;
    const source =
      url
        .split('/')
        .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
        .join('/') + (root ? '/?' : '');
    const methods = [route.method].flat().map((m) => m.toUpperCase());
    const known = routes.find((r) => r.pattern.source === `^${source}$`);
    if (known) for (const m of methods) known.methods.add(m);
    else routes.push({ pattern: new RegExp(`^${source}$`), methods: new Set(methods) });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = new Set<string>();
    for (const r of routes) if (r.pattern.test(path)) for (const m of r.methods) allowed.add(m);
    if (allowed.size > 0 && !allowed.has(request.method)) {
      if (allowed.has('GET')) allowed.add('HEAD');
      reply.header('allow', [...allowed].sort().join(', '));
      return send(request, reply, 'method_not_allowed');
    }
    return send(request, reply, 'not_found');
  });
}

/** Errors fastify answers before a route runs (a bad URL, a bad constraint): the catalogue's shape. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const code: ErrorCode = (error.code ? FRAMEWORK_CODES[error.code] : undefined) ?? 'bad_request';
  if ((error.statusCode ?? 400) >= 500) {
    request.log.error({ err: error }, 'framework error');
    void send(request, reply, 'internal_error');
    return;
  }
  void send(request, reply, code, {}, { non_field_errors: [error.message] });
}

function byteSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
