import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../../test/render-app.tsx';
import { makeUser, serveShell, startTestApi } from '../../../test/test-api.ts';
import type { TestApi } from '../../../test/test-api.ts';

let api: TestApi;
beforeEach(async () => {
  api = await startTestApi();
  serveShell(api);
});
afterEach(async () => {
  await api.close();
});

async function submitLogin(email = 'layla@example.org', password = 'wrong-password') {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Mot de passe'), password);
  await user.type(screen.getByLabelText('E-mail'), email);
  await user.click(screen.getByRole('button', { name: 'Se connecter' }));
}

/** The message is an alert tied to its field, which is marked invalid. */
async function expectFieldError(label: string, message: string) {
  const error = await screen.findByText(message);
  expect(error.getAttribute('role')).toBe('alert');
  const field = screen.getByLabelText(label, { exact: true });
  expect(field.getAttribute('aria-invalid')).toBe('true');
  expect(field.getAttribute('aria-describedby')?.split(' ')).toContain(error.id);
}

describe('login', () => {
  it('shows the remaining attempts {count}/{max} after a wrong password', async () => {
    api.route('POST', '/api/auth/login/', () => ({
      status: 401,
      body: {
        code: 'invalid_credentials',
        detail: 'Email ou mot de passe incorrect.',
        attempts_remaining: 3,
        max_attempts: 5,
      },
    }));
    await renderApp('/auth', { apiUrl: api.url, language: 'fr' });
    await submitLogin();
    expect((await screen.findByTestId('login-error')).textContent).toBe('Email ou mot de passe incorrect.');
    expect(screen.getByTestId('login-attempts').textContent).toBe('Tentatives restantes : 3/5');
    const sent = api.requests.find((r) => r.path === '/api/auth/login/');
    expect(sent?.body).toEqual({ email: 'layla@example.org', password: 'wrong-password', remember_me: true });
  });

  it('shows the lock with its minutes and "maximum attempts reached" on 429', async () => {
    api.route('POST', '/api/auth/login/', () => ({
      status: 429,
      body: {
        code: 'account_locked',
        detail: 'Compte verrouillé.',
        attempts_remaining: 0,
        max_attempts: 5,
        lockout_minutes: 15,
      },
    }));
    await renderApp('/auth', { apiUrl: api.url, language: 'fr' });
    await submitLogin();
    expect((await screen.findByTestId('login-locked')).textContent).toBe(
      'Compte verrouillé. Réessayez dans 15 minutes.',
    );
    expect(screen.getByTestId('login-max').textContent).toBe('Nombre maximal de tentatives atteint (5).');
  });

  it('shows a plain request rate limit (429 rate_limited) without an account lock', async () => {
    api.route('POST', '/api/auth/login/', () => ({
      status: 429,
      body: { code: 'rate_limited', detail: 'Trop de requêtes. Veuillez ralentir.' },
    }));
    await renderApp('/auth', { apiUrl: api.url, language: 'fr' });
    await submitLogin();
    expect((await screen.findByTestId('login-error')).textContent).toBe(
      'Trop de requêtes. Veuillez ralentir.',
    );
    expect(screen.queryByTestId('login-locked')).toBeNull();
  });

  it.each([
    [500, 'Erreur interne du serveur. Veuillez réessayer plus tard.'],
    [503, 'Service temporairement indisponible : le serveur redémarre.'],
    [502, 'Le serveur est injoignable pour le moment.'],
    [504, 'Le serveur est injoignable pour le moment.'],
    [403, 'Accès refusé : votre compte est peut-être en attente d’approbation.'],
    [418, 'La connexion a échoué (erreur 418).'],
  ])('maps HTTP %i to its message', async (status, message) => {
    api.route('POST', '/api/auth/login/', () => ({ status, body: { code: 'x', detail: 'server text' } }));
    await renderApp('/auth', { apiUrl: api.url, language: 'fr' });
    await submitLogin();
    expect((await screen.findByTestId('login-error')).textContent).toBe(message);
  });

  it('reports an unreachable server with the network message', async () => {
    await renderApp('/auth', { apiUrl: 'http://127.0.0.1:9', language: 'fr' });
    await submitLogin();
    expect((await screen.findByTestId('login-error')).textContent).toBe(
      'Impossible de contacter le serveur. Vérifiez votre connexion internet.',
    );
  });

  it('stores the tokens and sends a waitlisted user to /waitlist', async () => {
    const user = makeUser({ is_approved: false });
    api.route('POST', '/api/auth/login/', () => ({
      status: 200,
      body: { tokens: { access: 'A', refresh: 'R' }, user },
    }));
    api.route('GET', '/api/auth/profile/', () => ({ status: 200, body: user }));
    const { router } = await renderApp('/auth', { apiUrl: api.url, language: 'fr' });
    await submitLogin('layla@example.org', 'correct horse');
    await waitFor(() => expect(router.state.location.pathname).toBe('/waitlist'));
    expect(localStorage.getItem('access_token')).toBe('A');
    expect(localStorage.getItem('refresh_token')).toBe('R');
  });
});

describe('register', () => {
  async function fillRegister(password = 'Tz-research-2025') {
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('First name'), 'Layla');
    await user.type(screen.getByLabelText('Last name'), 'Haddad');
    await user.type(screen.getByLabelText('E-mail'), 'layla@example.org');
    await user.type(screen.getByLabelText('Password'), password);
    await user.type(screen.getByLabelText('Confirm password'), password);
    return user;
  }

  it('checks the password rules live', async () => {
    await renderApp('/auth?view=register', { apiUrl: api.url, language: 'en' });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('First name'), 'Layla');
    await user.type(screen.getByLabelText('Password'), '1234');
    const rule = (name: string) => document.querySelector(`[data-rule="${name}"]`)?.getAttribute('data-ok');
    expect(rule('length')).toBe('false');
    expect(rule('numeric')).toBe('false');
    // the server's similarity rule: "layla-123" is too close to the first name Layla (ratio 0.71)…
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'layla-123');
    expect(rule('length')).toBe('true');
    expect(rule('numeric')).toBe('true');
    expect(rule('similar')).toBe('false');
    expect(rule('match')).toBe('false');
    // …while "1234layla99" is not (ratio 0.63): the server accepts it, so the checklist does too
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), '1234layla99');
    expect(rule('similar')).toBe('true');
  });

  it('requires the terms to be accepted before sending anything', async () => {
    await renderApp('/auth?view=register', { apiUrl: api.url, language: 'en' });
    const user = await fillRegister();
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await expectFieldError(
      'I accept the terms of service and the privacy policy.',
      'You must accept the terms and the privacy policy.',
    );
    expect(api.requests.some((r) => r.path === '/api/auth/register/')).toBe(false);
  });

  it('an error from an empty submit goes away once its field is filled or its box ticked', async () => {
    await renderApp('/auth?view=register', { apiUrl: api.url, language: 'en' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Create account' }));
    const describedError = (label: string) => {
      const field = screen.getByLabelText(label);
      return field.getAttribute('aria-invalid');
    };
    expect(describedError('Password')).toBe('true');
    expect(screen.getAllByRole('alert').length).toBeGreaterThanOrEqual(5);
    await user.type(screen.getByLabelText('Password'), 'Tz-research-2025');
    expect(describedError('Password')).toBe('false');
    expect(describedError('First name')).toBe('true');
    await user.click(screen.getByLabelText('I accept the terms of service and the privacy policy.'));
    expect(screen.queryByText('You must accept the terms and the privacy policy.')).toBeNull();
    expect(api.requests.some((r) => r.path === '/api/auth/register/')).toBe(false);
  });

  it('maps server field errors by keyword to localised messages', async () => {
    api.route('POST', '/api/auth/register/', () => ({
      status: 400,
      body: {
        code: 'validation_error',
        detail: 'Certains champs sont invalides.',
        email: ['A user with this email already exists.'],
        password: ['This password is too common.'],
        first_name: ['This field may not be blank.'],
      },
    }));
    await renderApp('/auth?view=register', { apiUrl: api.url, language: 'en' });
    const user = await fillRegister();
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    // each server message is shown under its own field, which is marked invalid and described by it
    await expectFieldError('E-mail', 'An account with this e-mail already exists.');
    await expectFieldError('Password', 'This password is too common.');
    await expectFieldError('First name', 'First name is required.');
    expect(api.requests.find((r) => r.path === '/api/auth/register/')?.body).toEqual({
      first_name: 'Layla',
      last_name: 'Haddad',
      email: 'layla@example.org',
      password: 'Tz-research-2025',
      password_confirm: 'Tz-research-2025',
    });
  });

  it('sends a waitlisted registration to /waitlist', async () => {
    const created = makeUser({ is_approved: false });
    api.route('POST', '/api/auth/register/', () => ({
      status: 201,
      body: { tokens: { access: 'A', refresh: 'R' }, user: created, waitlist: true },
    }));
    api.route('GET', '/api/auth/profile/', () => ({ status: 200, body: created }));
    const { router } = await renderApp('/auth?view=register', { apiUrl: api.url, language: 'en' });
    const user = await fillRegister();
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/waitlist'));
  });
});
