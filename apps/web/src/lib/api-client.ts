// The one HTTP client: JSON by default, Bearer token when one is stored, 120 s time-out, and the spec's
// 401 rule (one refresh, one retry; parallel 401s wait for the same refresh).
import type { z } from 'zod';
import { ErrorBody } from '@tazamun/contracts/error-body';
import { RefreshResponse } from '@tazamun/contracts/auth';
import { LIMITS } from '@tazamun/contracts/limits';
import { clearTokens, getAccessToken, getRefreshToken, setTokens } from './token-storage.ts';
import { i18n } from './i18n.ts';

export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'parse' | 'session';

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number | null;
  readonly body: ErrorBody | null;

  constructor(kind: ApiErrorKind, status: number | null, body: ErrorBody | null, message: string) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
    this.body = body;
  }

  get code(): string | undefined {
    return this.body?.code;
  }

  /** Field errors (arrays of English messages) sent under the field's name. */
  fieldErrors(field: string): string[] {
    const value = this.body?.[field];
    return Array.isArray(value) ? value.filter((m): m is string => typeof m === 'string') : [];
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** An answer of the server refusing the request (4xx): asking again would change nothing. */
export function isClientError(error: unknown): error is ApiError {
  return isApiError(error) && error.status !== null && error.status < 500;
}

/** The server's own message for a client error (4xx); `fallback` for a server failure or no response. */
export function clientErrorMessage(error: unknown, fallback: string): string {
  return isClientError(error) ? error.message : fallback;
}

/** Server message fields in the spec's order: non_field_errors[0], detail, message, error, email[0], password[0]. */
export function serverMessage(body: Record<string, unknown> | null): string | null {
  if (!body) return null;
  const first = (v: unknown) => (Array.isArray(v) && typeof v[0] === 'string' ? v[0] : null);
  const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : null);
  return (
    first(body.non_field_errors) ??
    str(body.detail) ??
    str(body.message) ??
    str(body.error) ??
    first(body.email) ??
    first(body.password)
  );
}

let baseUrl = '';
/** Tests point the client at a local server; the app uses relative URLs (same origin). */
export function setApiBaseUrl(url: string): void {
  baseUrl = url.replace(/\/$/, '');
}

/** A URL of the API for the browser to load by itself (an <audio src>), not through api(). */
export function apiUrl(path: string): string {
  return `${baseUrl}${path}`;
}

let sessionExpiredHandler: () => void = () => window.location.assign('/');
/** Called once a refresh has failed and the tokens are gone; the app navigates to the root. */
export function setSessionExpiredHandler(handler: () => void): void {
  sessionExpiredHandler = handler;
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
  /** false for login, register, refresh and password reset: their 401 means bad credentials. */
  auth?: boolean;
  /** false where a 401 does not matter (logout): no refresh, no session-expired redirect. */
  refreshOn401?: boolean;
  responseType?: 'json' | 'blob';
  /** with a string body: send it as it is, with this Content-Type (otherwise bodies are JSON) */
  contentType?: string;
}

async function send(path: string, options: RequestOptions<unknown>, token: string | null): Promise<Response> {
  const headers = new Headers({ Accept: 'application/json', 'Accept-Language': i18n.language || 'ar' });
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (typeof options.body === 'string' && options.contentType) {
    // text sent as it is, with its own type (a dictionary as text/tab-separated-values)
    headers.set('Content-Type', options.contentType);
    body = options.body;
  } else if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.body);
  }
  if (token) headers.set('Authorization', `Bearer ${token}`);

  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), LIMITS.requestTimeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
  try {
    return await fetch(`${baseUrl}${path}`, { method: options.method ?? 'GET', headers, body, signal });
  } catch (error) {
    if (timeout.signal.aborted) throw new ApiError('timeout', null, null, i18n.t('errors.timeout'));
    if (options.signal?.aborted) throw error;
    throw new ApiError('network', null, null, i18n.t('errors.network'));
  } finally {
    clearTimeout(timer);
  }
}

async function errorFrom(response: Response): Promise<ApiError> {
  let raw: unknown = null;
  try {
    raw = await response.json();
  } catch {
    raw = null;
  }
  const parsed = ErrorBody.safeParse(raw);
  const body = parsed.success ? parsed.data : null;
  const message =
    serverMessage(raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : null) ??
    i18n.t('errors.httpStatus', { status: response.status });
  return new ApiError('http', response.status, body, message);
}

let refreshing: Promise<string> | null = null;

async function doRefresh(): Promise<string> {
  const refresh = getRefreshToken();
  if (!refresh) throw new ApiError('session', 401, null, i18n.t('errors.noRefreshToken'));
  const response = await send('/api/auth/token/refresh/', { method: 'POST', body: { refresh } }, null);
  if (!response.ok) throw await errorFrom(response);
  const tokens = RefreshResponse.parse(await response.json());
  setTokens(tokens);
  return tokens.access;
}

/** Every caller that hits a 401 while a refresh is running waits for that same refresh. */
export function refreshAccessToken(): Promise<string> {
  refreshing ??= doRefresh().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function authorisedResponse(path: string, options: RequestOptions<unknown>): Promise<Response> {
  const useAuth = options.auth !== false;
  const sentToken = useAuth ? getAccessToken() : null;
  const response = await send(path, options, sentToken);
  if (response.status !== 401 || !useAuth || options.refreshOn401 === false) return response;

  let token: string;
  const current = getAccessToken();
  if (current && current !== sentToken) {
    // Another request refreshed while this one was in flight: retry with the new token.
    token = current;
  } else {
    try {
      token = await refreshAccessToken();
    } catch (error) {
      clearTokens();
      sessionExpiredHandler();
      const message =
        error instanceof ApiError && error.kind === 'session'
          ? error.message
          : i18n.t('errors.sessionExpired');
      throw new ApiError('session', 401, null, message);
    }
  }
  return send(path, options, token);
}

export async function api<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const response = await authorisedResponse(path, options as RequestOptions<unknown>);
  if (!response.ok) throw await errorFrom(response);
  if (options.responseType === 'blob') return (await response.blob()) as T;
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  if (!options.schema) return data as T;
  const parsed = options.schema.safeParse(data);
  if (!parsed.success) {
    throw new ApiError('parse', response.status, null, i18n.t('errors.unexpected'));
  }
  return parsed.data;
}
