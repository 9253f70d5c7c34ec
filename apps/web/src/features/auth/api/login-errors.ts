// Login failures as the person should read them (spec section 8), with the lockout figures the
// server sends (attempts_remaining, max_attempts, lockout_minutes).
import type { TFunction } from 'i18next';
import { LIMITS } from '@tazamun/contracts/limits';
import { ApiError } from '../../../lib/api-client.ts';

export type LoginErrorKind =
  | 'network'
  | 'timeout'
  | 'locked'
  | 'server'
  | 'unavailable'
  | 'unreachable'
  | 'forbidden'
  | 'credentials'
  | 'other';

export interface LoginErrorView {
  kind: LoginErrorKind;
  message: string;
  /** "Attempts remaining: {count}/{max}" when the server counts failures. */
  attempts?: string;
  /** "Account locked. Try again in {minutes} minutes." */
  locked?: string;
  /** "Maximum number of attempts reached." */
  maxReached?: string;
}

function numberField(body: Record<string, unknown> | null, ...names: string[]): number | undefined {
  for (const name of names) {
    const value = body?.[name];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return undefined;
}

export function loginErrorView(error: unknown, t: TFunction): LoginErrorView {
  if (!(error instanceof ApiError)) return { kind: 'other', message: t('errors.unexpected') };
  if (error.kind === 'network') return { kind: 'network', message: t('auth.errors.network') };
  if (error.kind === 'timeout') return { kind: 'timeout', message: t('auth.errors.timeout') };

  const body = error.body as Record<string, unknown> | null;
  const max = numberField(body, 'max_attempts') ?? LIMITS.maxLoginAttempts;
  const remaining = numberField(body, 'attempts_remaining');
  const minutes = numberField(body, 'lockout_minutes', 'lockout_duration') ?? LIMITS.lockoutMinutes;

  switch (error.status) {
    case 429: {
      const lockout = error.code === 'too_many_attempts' || error.code === 'account_locked';
      if (!lockout && numberField(body, 'lockout_minutes', 'lockout_duration') === undefined) {
        // A plain request rate limit (not an account lock): the server says how to proceed.
        return { kind: 'locked', message: error.message || t('auth.errors.rateLimited') };
      }
      return {
        kind: 'locked',
        message: t('auth.errors.rateLimited'),
        locked: t('auth.lockout.locked', { minutes }),
        maxReached:
          remaining === undefined || remaining <= 0 ? t('auth.lockout.maxReached', { max }) : undefined,
      };
    }
    case 500:
      return { kind: 'server', message: t('auth.errors.server') };
    case 503:
      return { kind: 'unavailable', message: t('auth.errors.unavailable') };
    case 502:
    case 504:
      return { kind: 'unreachable', message: t('auth.errors.unreachable') };
    case 403:
      return { kind: 'forbidden', message: t('auth.errors.forbidden') };
    case 401: {
      const view: LoginErrorView = { kind: 'credentials', message: t('auth.errors.credentials') };
      if (remaining !== undefined) {
        if (remaining <= 0) view.maxReached = t('auth.lockout.maxReached', { max });
        else view.attempts = t('auth.lockout.remaining', { count: remaining, max });
      }
      return view;
    }
    default:
      return { kind: 'other', message: t('auth.errors.other', { status: error.status ?? '?' }) };
  }
}
