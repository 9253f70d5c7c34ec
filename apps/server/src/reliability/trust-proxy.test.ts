// TRUST_PROXY names the reverse proxies whose X-Forwarded-For is believed (issue 29, item 10). With
// `true` and the API port reachable, a client talking to the API directly could rotate the header and
// never meet the per-IP sign-in limit (34 of 34 attempts answered 401 in the deploy run); with the
// proxy's address, only the proxy's header counts: the direct client is limited by its own address,
// while the clients behind the proxy are told apart by the address the proxy reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../config.ts';
import { createTestApp } from '@tazamun/server/testing/test-app';

const PROXY = '10.0.0.5';

test('TRUST_PROXY takes true, false or addresses and networks, and refuses anything else', () => {
  assert.equal(loadConfig({}).trustProxy, false);
  assert.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true);
  assert.deepEqual(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }).trustProxy, [
    '127.0.0.1',
    '10.0.0.0/8',
    '::1',
  ]);
  for (const bad of ['proxy.internal', '10.0.0.0/33', '127.0.0.1/8/2'])
    assert.throws(
      () => loadConfig({ TRUST_PROXY: bad }),
      (err: unknown) => err instanceof ConfigError && /TRUST_PROXY/.test(err.message),
      bad,
    );
});

test('only the named proxy may say who the client is: a direct client cannot rotate its way past the limit', async (t) => {
  const { app } = await createTestApp(t, { trustProxy: [PROXY], authRateLimitPerMinute: 3 });
  let n = 0;
  const signIn = (remoteAddress: string) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      remoteAddress,
      headers: { 'x-forwarded-for': `198.51.100.${++n}` },
      // a different unknown address each time: no per-address limit or lockout comes into it
      payload: { email: `nobody${n}@example.org`, password: 'Wrong-Password-123' },
    });
  // straight to the API port from 203.0.113.7, a new X-Forwarded-For each time: counted as one client
  const direct = [];
  for (let i = 0; i < 5; i++) direct.push((await signIn('203.0.113.7')).statusCode);
  assert.deepEqual(direct, [401, 401, 401, 429, 429]);
  // through the proxy: each forwarded client has its own count
  const proxied = [];
  for (let i = 0; i < 5; i++) proxied.push((await signIn(PROXY)).statusCode);
  assert.deepEqual(proxied, [401, 401, 401, 401, 401]);
});
