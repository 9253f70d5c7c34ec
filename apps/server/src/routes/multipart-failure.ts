// What an upload that failed while its multipart body was read answers (a single upload and a batch
// alike): the app's own errors and the framework's 4xx as they are; a body that ends early or is not
// multipart, 400; a dependency away or a full disk, to the error handler (503 with Retry-After, 507);
// anything else is logged with its stack and answers 500 upload_failed, its message kept inside.
import type { FastifyBaseLogger } from 'fastify';
import { AppError, createError } from '../errors.ts';
import { isTransientWriteError } from '../reliability/unavailable.ts';

/**
 * Errors (@fastify/)busboy and dicer raise for a multipart body that ends early or is not multipart at
 * all. They carry no status code, but they are the client's doing (a dropped connection, a broken
 * client): 400, not 500.
 */
export function isMalformedMultipart(err: unknown): boolean {
  const message = err instanceof Error ? err.message : '';
  return /^(Unexpected end of (form|file|multipart data)|Malformed part header|Multipart: Boundary not found|Malformed urlencoded form)/.test(
    message,
  );
}

/** The error to throw for `err`; `what` names the failure in the log line of an unexpected one. */
export function multipartFailure(err: unknown, log: FastifyBaseLogger, what: string): unknown {
  if (err instanceof AppError) return err;
  const status = (err as { statusCode?: number }).statusCode;
  if (status && status < 500) return err;
  if (isMalformedMultipart(err))
    return createError(
      'bad_request',
      {},
      { non_field_errors: ['The multipart body is incomplete or malformed.'] },
    );
  if (isTransientWriteError(err)) return err;
  log.error({ err }, what);
  return createError('upload_failed');
}
