// Slow and greedy clients: without limits a client can hold a connection open forever by sending its
// headers or body a byte at a time, and one address can open thousands of them. Node's HTTP server
// gets a deadline for the headers, one for the whole request (headers and body), an idle-socket timeout
// and a keep-alive timeout; a connection cap per remote address refuses the surplus at accept time.
// Numbers come from config.ts (docs/reliability.md lists them).
import type { ServerOptions } from 'node:http';
import type { Server, Socket } from 'node:net';
import { ERRORS, errorMessage } from '@tazamun/contracts/errors';
import type { ErrorCode } from '@tazamun/contracts/errors';

export interface ConnectionLimits {
  /** the request line and headers must arrive within this (HEADERS_TIMEOUT) */
  headersTimeoutMs: number;
  /** the whole request, body included, within this (REQUEST_TIMEOUT): a 50 MB upload needs ~1.4 Mbit/s at 5 min */
  requestTimeoutMs: number;
  /** a socket with no traffic either way for this long is closed (SOCKET_TIMEOUT); SSE sends a comment every 15 s */
  socketTimeoutMs: number;
  /** an idle kept-alive connection is closed after this (KEEP_ALIVE_TIMEOUT) */
  keepAliveTimeoutMs: number;
  /** open connections per remote address; 0 = no cap (MAX_CONNECTIONS_PER_IP) */
  maxConnectionsPerIp: number;
}

/** The fastify options carrying the limits (fastify hands `http` to http.createServer). */
export function serverTimeoutOptions(l: ConnectionLimits): {
  requestTimeout: number;
  connectionTimeout: number;
  keepAliveTimeout: number;
  http: ServerOptions;
} {
  const headersTimeout = Math.min(l.headersTimeoutMs, l.requestTimeoutMs);
  return {
    requestTimeout: l.requestTimeoutMs,
    connectionTimeout: l.socketTimeoutMs,
    keepAliveTimeout: l.keepAliveTimeoutMs,
    http: {
      headersTimeout,
      requestTimeout: l.requestTimeoutMs,
      // Node checks the two deadlines above on this period (30 s by default, far coarser than 15 s)
      connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor(headersTimeout / 2))),
    },
  };
}

/** Refuses (closes at once) a connection beyond `max` open ones from the same address. */
export function capConnectionsPerAddress(
  server: Server,
  max: number,
  onRefused?: (ip: string) => void,
): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const ip = socket.remoteAddress ?? '';
    const n = (open.get(ip) ?? 0) + 1;
    if (n > max) {
      onRefused?.(ip);
      socket.destroy();
      return;
    }
    open.set(ip, n);
    socket.once('close', () => {
      const left = (open.get(ip) ?? 1) - 1;
      if (left <= 0) open.delete(ip);
      else open.set(ip, left);
    });
  });
}

function rawErrorResponse(code: ErrorCode): string {
  const status = ERRORS[code].status;
  // no request was parsed, so no Accept-Language: English, as the catalogue's first language
  const body = JSON.stringify({ code, detail: errorMessage(code, 'en') });
  const reason =
    code === 'request_timeout'
      ? 'Request Timeout'
      : code === 'headers_too_large'
        ? 'Request Header Fields Too Large'
        : 'Bad Request';
  return (
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/**
 * Node's `clientError` (a request it could not parse or that ran out of time) answered in the error
 * catalogue's shape instead of fastify's {error, message, statusCode}: 408, 431 or 400, then closed.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 'request_timeout'
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? 'headers_too_large'
        : 'bad_request';
  // a response already under way cannot be replaced; nothing was parsed if none was sent
  const started = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  // as Node and fastify do: the small answer goes out in one write before the socket is destroyed
  if (socket.writable && !started) socket.write(rawErrorResponse(code));
  socket.destroy();
}
