import type { PasswordResetConfirm, PasswordResetRequest } from '@tazamun/contracts/auth';
import { LoginResponse, RegisterRequest, RegisterResponse } from '@tazamun/contracts/auth';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';

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
