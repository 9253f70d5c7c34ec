import type { PasswordResetConfirm, PasswordResetRequest } from '@tazamun/contracts/auth';
import { LoginRequest, LoginResponse, RegisterRequest, RegisterResponse } from '@tazamun/contracts/auth';
import { LIMITS } from '@tazamun/contracts/limits';
import { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/react-query.ts';
import type { MutationConfig } from '../../../lib/react-query.ts';

export function login(body: { email: string; password: string; remember_me: boolean }) {
  return api('/api/auth/login/', { method: 'POST', body, schema: LoginResponse, auth: false });
}

export function register(body: RegisterRequest) {
  return api('/api/auth/register/', {
    method: 'POST',
    body: RegisterRequest.parse(body),
    schema: RegisterResponse,
    auth: false,
  });
}

export function requestPasswordReset(body: z.infer<typeof PasswordResetRequest>) {
  return api('/api/auth/password-reset/', { method: 'POST', body, auth: false });
}

export function confirmPasswordReset(body: z.infer<typeof PasswordResetConfirm>) {
  return api('/api/auth/password-reset/confirm/', { method: 'POST', body, auth: false });
}

// Letters (any script), spaces, apostrophes, hyphens and dots: what personal names are made of.
const NAME = /^[\p{L}\p{M}][\p{L}\p{M}\s'’.-]*$/u;

/**
 * The register form: the contracts' request with what the browser can check before sending (the
 * messages are i18n keys, lib/form-errors.ts) and the terms box. The server checks the rest (an address
 * in use, a common or similar password).
 */
export const RegisterForm = RegisterRequest.extend({
  first_name: z
    .string()
    .trim()
    .min(1, 'register.errors.firstNameRequired')
    .regex(NAME, 'register.errors.nameInvalid'),
  last_name: z
    .string()
    .trim()
    .min(1, 'register.errors.lastNameRequired')
    .regex(NAME, 'register.errors.nameInvalid'),
  email: z
    .string()
    .trim()
    .min(1, 'register.errors.emailRequired')
    .pipe(z.email('register.errors.emailInvalid')),
  password: z
    .string()
    .min(1, 'register.errors.passwordRequired')
    .min(LIMITS.passwordMinLength, 'register.errors.passwordTooShort')
    .regex(/\D/, 'register.errors.passwordNumeric'),
  password_confirm: z.string().min(1, 'register.errors.confirmRequired'),
  terms: z.boolean().refine((accepted) => accepted, 'register.errors.termsRequired'),
}).refine((f) => f.password_confirm === '' || f.password === f.password_confirm, {
  path: ['password_confirm'],
  message: 'register.errors.passwordMismatch',
});
export type RegisterFormInput = z.input<typeof RegisterForm>;
export type RegisterFormOutput = z.output<typeof RegisterForm>;

/** The sign-in form: the contracts' request, an address and a password present (i18n keys). */
export const LoginForm = LoginRequest.extend({
  email: z
    .string()
    .trim()
    .min(1, 'register.errors.emailRequired')
    .pipe(z.email('register.errors.emailInvalid')),
  password: z.string().min(1, 'register.errors.passwordRequired'),
  remember_me: z.boolean(),
});
export type LoginFormInput = z.input<typeof LoginForm>;
export type LoginFormOutput = z.output<typeof LoginForm>;

export function useRegister(config?: MutationConfig<z.infer<typeof RegisterResponse>, RegisterRequest>) {
  return useRefreshingMutation(register, null, config);
}

export function useLogin(
  config?: MutationConfig<
    z.infer<typeof LoginResponse>,
    { email: string; password: string; remember_me: boolean }
  >,
) {
  return useRefreshingMutation(login, null, config);
}

export function useRequestPasswordReset(
  config?: MutationConfig<unknown, z.infer<typeof PasswordResetRequest>>,
) {
  return useRefreshingMutation(requestPasswordReset, null, config);
}

export function useConfirmPasswordReset(
  config?: MutationConfig<unknown, z.infer<typeof PasswordResetConfirm>>,
) {
  return useRefreshingMutation(confirmPasswordReset, null, config);
}
