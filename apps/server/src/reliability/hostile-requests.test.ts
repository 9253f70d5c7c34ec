// The hostile-request catalogue (issue 12), HTTP layer: deep JSON, body caps, bodiless JSON POSTs, wrong
// methods, framework errors in the contract's shape, slow and greedy connections, tokens without
// expiry, secrets in the access log. Runs on SQLite and again on PostgreSQL with the server suite.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { buildApp } from '../app.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { ManualClock } from '../clock.ts';
import {
  approvedUser,
  bearer,
  createTestApp,
  expectError,
  login,
  testConfig,
} from '@tazamun/server/testing/test-app';
import { MAX_JSON_DEPTH, nulPaths, TooDeepError } from './input-hygiene.ts';
import { redactUrl } from './log-redaction.ts';
import { BODY_LIMITS } from './body-limits.ts';

const nested = (depth: number, leaf = '0') => '['.repeat(depth) + leaf + ']'.repeat(depth);

test('deep JSON: a linear walk with a depth limit (400), and per-route body caps (413)', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);

  // the walk itself: no recursion, so 100 000 levels throw our error rather than overflow the stack
  assert.throws(() => nulPaths(JSON.parse(nested(100_000))), TooDeepError);
  assert.deepEqual(nulPaths(JSON.parse(nested(MAX_JSON_DEPTH, '"a\\u0000"'))), [
    Array(MAX_JSON_DEPTH).fill('0').join('.'),
  ]);
  assert.deepEqual(nulPaths({ a: { b: ['x', 'y\u0000'] }, 'k\u0000': 1 }), ['non_field_errors', 'a.b.1']);

  // the report's probe: 960 KB of 2,000-deep arrays at the public logout route
  const deep = nested(2000);
  const body = `[${Array(Math.floor(960_000 / (deep.length + 1)))
    .fill(deep)
    .join(',')}]`;
  const huge = await app.inject({
    method: 'POST',
    url: '/api/auth/logout/',
    headers: { 'content-type': 'application/json' },
    payload: body,
  });
  const tooLarge = expectError(huge, 413, 'file_too_large');
  assert.equal(tooLarge.detail, `File too large (maximum ${BODY_LIMITS.token} bytes).`);

  // under each cap, nesting past the limit is a validation error, never a 500, on every JSON route
  const probes: [string, string, string][] = [
    ['POST', '/api/auth/logout/', `{"refresh":${nested(120)}}`],
    ['POST', '/api/auth/login/', `{"email":${nested(3000)}}`],
    ['POST', '/api/auth/register/', `{"first_name":${nested(5000)}}`],
    ['POST', '/api/auth/token/refresh/', nested(200)],
    ['POST', '/api/auth/password-reset/', `{"email":${nested(3000)}}`],
    ['POST', '/api/feedback/', `{"message":${nested(200_000)}}`],
  ];
  for (const [method, url, payload] of probes) {
    const res = await app.inject({
      method: method as 'POST',
      url,
      payload,
      headers: { 'content-type': 'application/json', ...bearer(u.access) },
    });
    const err = expectError(res, 400, 'validation_error');
    assert.deepEqual(
      err.non_field_errors,
      [`The request body is nested too deeply (more than ${MAX_JSON_DEPTH} levels).`],
      url,
    );
  }
  // 960 KB of 2,000-deep arrays where the 1 MB default applies: refused the same way
  const big = await app.inject({
    method: 'POST',
    url: '/api/projects/',
    headers: { 'content-type': 'application/json', ...bearer(u.access) },
    payload: body,
  });
  expectError(big, 400, 'validation_error');

  // and the JSON routes still work afterwards
  assert.equal((await login(app, u.email, u.password)).statusCode, 200);
  assert.equal((await app.inject({ url: '/api/health/' })).statusCode, 200);
});

test('bodiless POSTs with Content-Type: application/json are accepted; routes that need a body say so', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const json = { 'content-type': 'application/json' };
  const use = await app.inject({
    method: 'POST',
    url: '/api/auth/quota/use/',
    headers: { ...json, ...bearer(u.access) },
  });
  assert.equal(use.statusCode, 200, use.body);
  assert.equal(use.json().quota.used_today, 1);
  // whitespace only is no body either
  const again = await app.inject({
    method: 'POST',
    url: '/api/auth/quota/use/',
    headers: { ...json, ...bearer(u.access) },
    payload: ' \n',
  });
  assert.equal(again.statusCode, 200, again.body);
  assert.equal(again.json().quota.used_today, 2);
  const others = await app.inject({
    method: 'POST',
    url: '/api/auth/sessions/revoke-others/',
    headers: { ...json, ...bearer(u.access) },
  });
  assert.equal(others.statusCode, 200, others.body);
  assert.deepEqual(others.json(), { revoked: 0 });
  const logout = await app.inject({
    method: 'POST',
    url: '/api/auth/logout/',
    headers: { ...json, ...bearer(u.access) },
  });
  assert.equal(logout.statusCode, 200, logout.body);
  assert.deepEqual(logout.json(), { detail: 'Logged out.' });
  // a route with a body schema: the usual validation error, not "Body cannot be empty"
  const reg = await app.inject({ method: 'POST', url: '/api/auth/register/', headers: json });
  const err = expectError(reg, 400, 'validation_error');
  assert.deepEqual(err.non_field_errors, ['The request body is missing or invalid.']);
  // broken JSON is still broken
  expectError(
    await app.inject({ method: 'POST', url: '/api/auth/login/', headers: json, payload: '{"email":' }),
    400,
    'bad_request',
  );
});

test('a wrong method answers 405 with Allow; bad URLs and framework errors keep the error shape', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const cases: [string, string, string][] = [
    ['DELETE', '/api/auth/login/', 'POST'],
    ['GET', '/api/auth/logout/', 'POST'],
    ['PUT', '/api/auth/profile/', 'GET, HEAD, PATCH'],
    ['POST', '/api/health/', 'GET, HEAD'],
    ['PATCH', '/api/alignments/0b8e5d1c-0000-4000-8000-000000000000/cancel/', 'POST'],
  ];
  for (const [method, url, allow] of cases) {
    const res = await app.inject({ method: method as 'GET', url, headers: bearer(u.access) });
    expectError(res, 405, 'method_not_allowed');
    assert.equal(res.headers.allow, allow, `${method} ${url}`);
  }
  // the localised message comes with it
  const fr = await app.inject({
    method: 'DELETE',
    url: '/api/auth/login/',
    headers: { 'accept-language': 'fr' },
  });
  assert.equal(fr.json().detail, 'Méthode non autorisée.');
  // unknown paths stay 404
  expectError(await app.inject({ method: 'POST', url: '/api/nothing-here/' }), 404, 'not_found');
  // a malformed percent-encoding in the path: fastify's own 400, now in the catalogue's shape
  const bad = await app.inject({ url: '/api/alignments/%E0%A4%A/' });
  expectError(bad, 400, 'bad_request');
});

test('access tokens without exp or iat are refused', async (t) => {
  const { app, config } = await createTestApp(t);
  const u = await approvedUser(app);
  const session = await app.deps.db
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', u.id)
    .executeTakeFirstOrThrow();
  const key = new TextEncoder().encode(config.jwtSecret!);
  const now = Math.floor(Date.now() / 1000);
  const base = () =>
    new SignJWT({ sid: session.id })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(u.id)
      .setAudience('tazamun');
  const complete = await base()
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .sign(key);
  const noExp = await base().setIssuedAt(now).sign(key);
  const noIat = await base()
    .setExpirationTime(now + 600)
    .sign(key);
  const neither = await base().sign(key);
  // the control: the same claims with both are accepted
  assert.equal((await app.inject({ url: '/api/auth/profile/', headers: bearer(complete) })).statusCode, 200);
  for (const token of [noExp, noIat, neither]) {
    expectError(
      await app.inject({ url: '/api/auth/profile/', headers: bearer(token) }),
      401,
      'token_invalid',
    );
    // the query-string form of the event stream goes through the same check
    expectError(
      await app.inject({
        url: `/api/alignments/00000000-0000-4000-8000-000000000000/events/?access_token=${token}`,
      }),
      401,
      'token_invalid',
    );
  }
});

test('bearer tokens, audio signatures and share tokens never reach the access log', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-log-test-'));
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const app = await buildApp(testConfig(dir), {
    clock: new ManualClock(),
    logger: { level: 'info', stream },
  });
  t.after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const secrets = [
    'eyJhbGciOiJIUzI1NiJ9.SECRET-ACCESS.sig',
    'SIGNATURE-abc123_-',
    'SHARETOKEN0123456789abcdef',
    'RESET-TOKEN-xyz',
  ];
  const urls = [
    `/api/alignments/00000000-0000-4000-8000-000000000000/events/?access_token=${secrets[0]}`,
    `/api/alignments/00000000-0000-4000-8000-000000000000/audio/?exp=99999999999&sig=${secrets[1]}`,
    `/api/share/${secrets[2]}/`,
    `/api/share/${secrets[2]}/audio/`,
    `/auth?view=reset&token=${secrets[3]}`,
    `/api/alignments/?SIG=${secrets[1]}&page=2`,
  ];
  for (const url of urls) await app.inject({ url });
  const logged = lines.join('\n');
  for (const s of secrets) assert.ok(!logged.includes(s), `${s} was logged`);
  // one "request completed" line per request (plugins/request-log.ts), its URL redacted
  const requestUrls = lines
    .map((l) => JSON.parse(l) as { msg?: string; url?: string })
    .filter((l) => l.msg === 'request completed')
    .map((l) => l.url);
  assert.deepEqual(requestUrls, [
    '/api/alignments/00000000-0000-4000-8000-000000000000/events/?access_token=[redacted]',
    '/api/alignments/00000000-0000-4000-8000-000000000000/audio/?exp=99999999999&sig=[redacted]',
    '/api/share/[redacted]/',
    '/api/share/[redacted]/audio/',
    '/auth?view=reset&token=[redacted]',
    '/api/alignments/?SIG=[redacted]&page=2',
  ]);
  assert.equal(redactUrl('/api/alignments/?page=2&q=sig'), '/api/alignments/?page=2&q=sig');
});

// ---- slow and greedy connections, against a listening server ----

interface Raw {
  socket: Socket;
  /** everything the server sent, once it closed the connection */
  closed: Promise<string>;
}

function rawConnect(port: number): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
    const closed = new Promise<string>((done) => socket.on('close', () => done(data)));
    socket.once('error', () => {});
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

function catalogueAnswer(raw: string): { status: number; body: { code: string; detail: string } } {
  const [head, body] = raw.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head ?? '')?.[1]), body: JSON.parse(body ?? '') };
}

test('slow headers and half-sent bodies time out (408), huge headers get 431, one address gets a capped number of connections', async (t) => {
  const { app } = await createTestApp(t, {
    connectionLimits: {
      headersTimeoutMs: 400,
      requestTimeoutMs: 800,
      socketTimeoutMs: 5_000,
      keepAliveTimeoutMs: 1_000,
      maxConnectionsPerIp: 4,
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;

  // headers that never end
  const slowHeaders = await rawConnect(port);
  slowHeaders.socket.write('GET /api/health/ HTTP/1.1\r\nHost: x\r\nX-Slow: ');
  // a body that never arrives in full
  const halfBody = await rawConnect(port);
  halfBody.socket.write(
    'POST /api/auth/login/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"email":',
  );
  const a = catalogueAnswer(await slowHeaders.closed);
  assert.equal(a.status, 408);
  assert.equal(a.body.code, 'request_timeout');
  assert.equal(a.body.detail, 'The request took too long to arrive; the connection was closed.');
  const b = catalogueAnswer(await halfBody.closed);
  assert.equal(b.status, 408);
  assert.equal(b.body.code, 'request_timeout');

  // 20 KB of headers (Node's limit is 16 KB)
  const big = await rawConnect(port);
  big.socket.write(`GET /api/health/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  const c = catalogueAnswer(await big.closed);
  assert.equal(c.status, 431);
  assert.deepEqual(c.body, { code: 'headers_too_large', detail: 'The request headers are too large.' });

  // four open connections from 127.0.0.1 are the cap: the fifth is closed without an answer
  const held = await Promise.all([1, 2, 3, 4].map(() => rawConnect(port)));
  const fifth = await rawConnect(port);
  fifth.socket.write('GET /api/health/ HTTP/1.1\r\nHost: x\r\n\r\n');
  assert.equal(await fifth.closed, '');
  // one of the four still works, and once one closes a new connection is served
  held[0]!.socket.write('GET /api/health/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  assert.match(await held[0]!.closed, /^HTTP\/1\.1 200 OK/);
  const next = await rawConnect(port);
  next.socket.write('GET /api/health/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  assert.match(await next.closed, /^HTTP\/1\.1 200 OK/);
  for (const h of held.slice(1)) h.socket.destroy();
});

test('the limits come from the environment, with their defaults, and bad values are refused at start', () => {
  const defaults = loadConfig({});
  assert.deepEqual(defaults.connectionLimits, {
    headersTimeoutMs: 15_000,
    requestTimeoutMs: 300_000,
    socketTimeoutMs: 60_000,
    keepAliveTimeoutMs: 72_000,
    maxConnectionsPerIp: 64,
  });
  assert.equal(defaults.minFreeDiskBytes, 512 * 1024 * 1024);
  const set = loadConfig({
    HEADERS_TIMEOUT: '5s',
    REQUEST_TIMEOUT: '10m',
    SOCKET_TIMEOUT: '30',
    KEEP_ALIVE_TIMEOUT: '5s',
    MAX_CONNECTIONS_PER_IP: '0',
    MIN_FREE_DISK_MB: '0',
  });
  assert.deepEqual(set.connectionLimits, {
    headersTimeoutMs: 5_000,
    requestTimeoutMs: 600_000,
    socketTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5_000,
    maxConnectionsPerIp: 0,
  });
  assert.equal(set.minFreeDiskBytes, 0);
  // the headers deadline never exceeds the whole request's (Node refuses that combination)
  assert.equal(
    loadConfig({ HEADERS_TIMEOUT: '2m', REQUEST_TIMEOUT: '1m' }).connectionLimits?.headersTimeoutMs,
    60_000,
  );
  assert.throws(
    () => loadConfig({ REQUEST_TIMEOUT: 'soon', MAX_CONNECTIONS_PER_IP: '-1', MIN_FREE_DISK_MB: 'lots' }),
    (err: unknown) =>
      err instanceof ConfigError &&
      ['REQUEST_TIMEOUT:', 'MAX_CONNECTIONS_PER_IP:', 'MIN_FREE_DISK_MB:'].every((k) =>
        err.problems.some((p) => p.startsWith(k)),
      ),
  );
});
