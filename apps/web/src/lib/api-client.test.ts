import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, setApiBaseUrl, setSessionExpiredHandler } from './api-client.ts';
import { changeLanguage, initI18n } from './i18n.ts';
import { getAccessToken, getRefreshToken, setTokens } from './token-storage.ts';
import { startTestApi } from '../test/test-api.ts';
import type { TestApi } from '../test/test-api.ts';

let server: TestApi;
let expired: ReturnType<typeof vi.fn<() => void>>;

beforeEach(async () => {
  await initI18n('fr');
  await changeLanguage('fr');
  server = await startTestApi();
  setApiBaseUrl(server.url);
  expired = vi.fn<() => void>();
  setSessionExpiredHandler(expired);
});

afterEach(async () => {
  await server.close();
});

/** A protected resource that accepts only the current access token. */
function protectedRoute(path: string, state: { valid: string }) {
  server.route('GET', path, (req) =>
    req.authorization === `Bearer ${state.valid}`
      ? { status: 200, body: { path } }
      : { status: 401, body: { code: 'token_invalid', detail: 'Token is invalid or expired.' } },
  );
}

describe('the 401 rule: one refresh, one retry', () => {
  it('sends the stored token as a Bearer header', async () => {
    setTokens({ access: 'a1', refresh: 'r1' });
    const state = { valid: 'a1' };
    protectedRoute('/api/one/', state);
    await expect(api('/api/one/')).resolves.toEqual({ path: '/api/one/' });
    expect(server.requests[0]?.authorization).toBe('Bearer a1');
  });

  it('shares ONE refresh between parallel 401s and retries each request once', async () => {
    setTokens({ access: 'old', refresh: 'r1' });
    const state = { valid: 'new' };
    for (const p of ['/api/a/', '/api/b/', '/api/c/']) protectedRoute(p, state);
    server.route('POST', '/api/auth/token/refresh/', (req) => {
      expect(req.body).toEqual({ refresh: 'r1' });
      return { status: 200, body: { access: 'new', refresh: 'r2' }, delayMs: 50 };
    });

    const results = await Promise.all([api('/api/a/'), api('/api/b/'), api('/api/c/')]);

    expect(results).toEqual([{ path: '/api/a/' }, { path: '/api/b/' }, { path: '/api/c/' }]);
    const refreshes = server.requests.filter((r) => r.path === '/api/auth/token/refresh/');
    expect(refreshes).toHaveLength(1);
    for (const p of ['/api/a/', '/api/b/', '/api/c/']) {
      const calls = server.requests.filter((r) => r.path === p).map((r) => r.authorization);
      expect(calls).toEqual(['Bearer old', 'Bearer new']);
    }
    expect(getAccessToken()).toBe('new');
    expect(getRefreshToken()).toBe('r2');
    expect(expired).not.toHaveBeenCalled();
  });

  it('retries only once: a second 401 is passed on, not refreshed again', async () => {
    setTokens({ access: 'old', refresh: 'r1' });
    server.route('GET', '/api/always/', () => ({
      status: 401,
      body: { code: 'token_invalid', detail: 'no' },
    }));
    server.route('POST', '/api/auth/token/refresh/', () => ({
      status: 200,
      body: { access: 'new', refresh: 'r2' },
    }));

    const error = await api('/api/always/').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect(server.requests.filter((r) => r.path === '/api/always/')).toHaveLength(2);
    expect(server.requests.filter((r) => r.path === '/api/auth/token/refresh/')).toHaveLength(1);
  });

  it('a failed refresh clears both tokens and sends the browser to the root', async () => {
    setTokens({ access: 'old', refresh: 'revoked' });
    protectedRoute('/api/x/', { valid: 'never' });
    server.route('POST', '/api/auth/token/refresh/', () => ({
      status: 401,
      body: { code: 'token_invalid', detail: 'Token is invalid or expired.' },
    }));

    const error = await api('/api/x/').catch((e: unknown) => e);

    expect((error as ApiError).message).toBe('Session expirée, veuillez vous reconnecter');
    expect(getAccessToken()).toBeNull();
    expect(getRefreshToken()).toBeNull();
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('without a refresh token the message is "Aucun refresh token disponible"', async () => {
    localStorage.setItem('access_token', 'old');
    protectedRoute('/api/x/', { valid: 'never' });

    const error = await api('/api/x/').catch((e: unknown) => e);

    expect((error as ApiError).message).toBe('Aucun refresh token disponible');
    expect(server.requests.some((r) => r.path === '/api/auth/token/refresh/')).toBe(false);
    expect(getAccessToken()).toBeNull();
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('does not refresh on the login route: its 401 means wrong credentials', async () => {
    server.route('POST', '/api/auth/login/', () => ({
      status: 401,
      body: {
        code: 'invalid_credentials',
        detail: 'Email ou mot de passe incorrect.',
        attempts_remaining: 4,
      },
    }));
    const error = (await api('/api/auth/login/', { method: 'POST', body: {}, auth: false }).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect(error.status).toBe(401);
    expect(error.body?.attempts_remaining).toBe(4);
    expect(expired).not.toHaveBeenCalled();
  });
});

describe('errors', () => {
  it('reads the server message fields in the spec order', async () => {
    server.route('GET', '/api/e/', () => ({
      status: 400,
      body: {
        code: 'validation_error',
        detail: 'Certains champs sont invalides.',
        non_field_errors: ['First one'],
      },
    }));
    const error = (await api('/api/e/', { auth: false }).catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe('First one');
    expect(error.code).toBe('validation_error');
  });

  it('reports an unreachable server as a network error', async () => {
    await server.close();
    const error = (await api('/api/health/', { auth: false }).catch((e: unknown) => e)) as ApiError;
    expect(error.kind).toBe('network');
    server = await startTestApi();
  });
});
