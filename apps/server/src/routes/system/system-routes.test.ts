import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PublicConfig } from '@tazamun/contracts/auth';
import { createTestApp, expectError } from '@tazamun/server/testing/test-app';

test('health, readiness and public config', async (t) => {
  const { app } = await createTestApp(t);
  assert.deepEqual((await app.inject({ url: '/api/health/' })).json(), {
    status: 'ok',
    version: 'v1.0.0',
    db: 'ok',
  });
  assert.deepEqual((await app.inject({ url: '/api/ready/' })).json(), {
    ready: true,
    degraded: false,
    checks: { database: 'ok', workers: 'ok' },
  });
  const cfg = PublicConfig.parse((await app.inject({ url: '/api/config/' })).json());
  assert.equal(cfg.org_name, 'Tazamun Lab');
  assert.equal(cfg.org_url, 'https://lab.example.org');
  assert.equal(cfg.support_email, 'support@example.org');
  assert.equal(cfg.docs_url, '/docs');
});

test('the OpenAPI document lists every route and /docs renders', async (t) => {
  const { app } = await createTestApp(t);
  const doc = (await app.inject({ url: '/docs/json' })).json();
  const paths = Object.keys(doc.paths);
  for (const p of [
    '/api/health/',
    '/api/ready/',
    '/api/config/',
    '/api/auth/register/',
    '/api/auth/login/',
    '/api/auth/token/refresh/',
    '/api/auth/logout/',
    '/api/auth/profile/',
    '/api/auth/change-password/',
    '/api/auth/quota/',
    '/api/auth/quota/use/',
    '/api/auth/quota/reset/',
    '/api/auth/stats/',
    '/api/auth/sessions/',
    '/api/auth/sessions/{id}/',
    '/api/auth/sessions/revoke-others/',
    '/api/auth/avatar/',
    '/api/auth/avatar/{userId}/{file}',
    '/api/auth/account/',
    '/api/auth/export/',
    '/api/auth/preferences/',
    '/api/auth/password-reset/',
    '/api/auth/password-reset/confirm/',
    '/api/feedback/',
    '/api/admin/users/',
    '/api/admin/users/{id}/approve/',
    '/api/admin/users/{id}/reject/',
    '/api/admin/users/{id}/quota/',
    '/api/admin/feedback/',
    '/api/auth/tokens/',
    '/api/auth/tokens/{id}/',
    '/api/projects/{id}/batch/',
    '/api/projects/{id}/export/{format}/',
    '/api/lexicon/',
    '/api/lexicon/{id}/',
    '/api/lexicon/import/',
    '/api/lexicon/export/',
    '/api/lexicon/preview/',
  ]) {
    assert.ok(paths.includes(p), `missing ${p}`);
  }
  assert.ok(
    doc.paths['/api/auth/register/'].post.requestBody.content['application/json'].schema.properties
      .password_confirm,
  );
  const page = await app.inject({ url: '/docs' });
  assert.ok(page.statusCode === 200 || page.statusCode === 302, String(page.statusCode));
  const html = await app.inject({ url: '/docs/' });
  assert.equal(html.statusCode, 200);
  assert.match(html.body, /swagger-ui/i);
  const bundle = await app.inject({ url: '/docs/static/swagger-ui-bundle.js' });
  assert.equal(bundle.statusCode, 200);
  // the web app's own pages are not API: the reference leaves them out
  assert.equal(paths.includes('/'), false);
  assert.equal(paths.includes('/*'), false);
  assert.ok(
    paths.every((p) => p.startsWith('/api/') || p === '/metrics'),
    paths.join(' '),
  );
  // in the app's look, with the way back to the app, all served here (no outside address)
  assert.match(html.body, /<title>Tazamun — API reference<\/title>/);
  const css = html.body.match(/href="\.\/static\/(theme\/tazamun\.css)"/);
  assert.ok(css, 'the page links its theme');
  const theme = await app.inject({ url: `/docs/static/${css[1]}` });
  assert.equal(theme.statusCode, 200);
  assert.match(theme.body, /prefers-color-scheme: dark/);
  assert.match(theme.body, /max-width: 640px/);
  // every script and style comes from this server
  for (const m of html.body.matchAll(/(?:src|href)="([^"]+)"/g))
    assert.doesNotMatch(m[1]!, /^(https?:)?\/\//);
});

test('unknown API paths are JSON 404s in the requested language; no trailing slash is a 404', async (t) => {
  const { app } = await createTestApp(t);
  const body = expectError(
    await app.inject({ url: '/api/nothing/here/', headers: { 'accept-language': 'ar' } }),
    404,
    'not_found',
  );
  assert.equal(body.detail, 'غير موجود.');
  expectError(await app.inject({ url: '/api/auth/profile' }), 404, 'not_found');
});

test('a 5xx hides its message and carries the request id', async (t) => {
  const { app } = await createTestApp(t);
  app.get('/api/test-boom/', async () => {
    throw new Error('secret internals: /etc/passwd');
  });
  const res = await app.inject({ url: '/api/test-boom/', headers: { 'x-request-id': 'req-abcdef123' } });
  const body = expectError(res, 500, 'internal_error');
  assert.equal(body.request_id, 'req-abcdef123');
  assert.equal(res.headers['x-request-id'], 'req-abcdef123');
  assert.equal(res.body.includes('secret'), false);
});

test('security headers and CORS limited to CORS_ORIGIN', async (t) => {
  const { app } = await createTestApp(t, { corsOrigin: ['https://app.example.org'] });
  const res = await app.inject({ url: '/api/health/', headers: { origin: 'https://app.example.org' } });
  assert.equal(res.headers['access-control-allow-origin'], 'https://app.example.org');
  const csp = String(res.headers['content-security-policy']);
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /media-src 'self' data: blob:/);
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  const other = await app.inject({ url: '/api/health/', headers: { origin: 'https://evil.example.com' } });
  assert.equal(other.headers['access-control-allow-origin'], undefined);
});

test('without a web build, / answers a short note instead of crashing', async (t) => {
  const { app } = await createTestApp(t);
  const res = await app.inject({ url: '/' });
  assert.equal(res.statusCode, 200);
  assert.match(res.body, /web app has not been built/);
});

test('with a web build: files are served and other paths fall back to index.html', async (t) => {
  const { app } = await createTestApp(t, {}, (dir) => {
    const dist = join(dir, 'web-dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(dist, 'assets/app.js'), 'console.log(1)');
    return { webDist: dist };
  });
  const index = await app.inject({ url: '/' });
  assert.equal(index.statusCode, 200);
  assert.match(index.body, /id="root"/);
  const asset = await app.inject({ url: '/assets/app.js' });
  assert.equal(asset.statusCode, 200);
  assert.match(String(asset.headers['content-type']), /javascript/);
  for (const route of ['/dashboard', '/results/42', '/auth?view=register']) {
    const r = await app.inject({ url: route });
    assert.equal(r.statusCode, 200, route);
    assert.match(r.body, /id="root"/, route);
  }
  expectError(await app.inject({ url: '/assets/missing.js' }), 404, 'not_found');
  expectError(await app.inject({ url: '/api/unknown/' }), 404, 'not_found');
});
