// Errors thrown by routes and commands. Only catalogue codes leave the server: the error handler turns
// an AppError into the ErrorBody of packages/contracts, localised per request.
import { ERRORS } from '@tazamun/contracts/errors';
import type { ErrorCode } from '@tazamun/contracts/errors';

export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly params: Record<string, string | number> = {},
    /** extra body keys: field errors, non_field_errors, attempts_remaining... */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(code);
    this.status = ERRORS[code].status;
  }
}

export function createError(
  code: ErrorCode,
  params?: Record<string, string | number>,
  extra?: Record<string, unknown>,
): AppError {
  return new AppError(code, params, extra);
}

/** 400 with Django-REST-style field errors: `{ field: [messages] }`. */
export function fieldError(fields: FieldErrors): AppError {
  return new AppError('validation_error', {}, fields);
}

/** Collects field messages, then throws them all at once. */
export class FieldErrorCollector {
  private readonly fields: FieldErrors = {};
  add(field: string, message: string): void {
    (this.fields[field] ??= []).push(message);
  }
  has(field: string): boolean {
    return field in this.fields;
  }
  get empty(): boolean {
    return Object.keys(this.fields).length === 0;
  }
  throwIfAny(): void {
    if (!this.empty) throw fieldError(this.fields);
  }
}

/** The English field messages the web matches by keyword (spec section 5). */
export const FIELD_MESSAGES = {
  required: 'This field is required.',
  blank: 'This field may not be blank.',
  invalid: 'This value is invalid.',
  invalidEmail: 'Enter a valid email address; this one is invalid.',
  emailExists: 'user with this email already exists.',
  invalidName: 'This name contains invalid characters; use letters, spaces, hyphens and apostrophes.',
  tooLong: (max: number) => `Ensure this field has no more than ${max} characters.`,
  passwordMismatch: "The two password fields didn't match.",
  wrongPassword: 'Your current password is invalid. Please enter it again.',
  confirmationInvalid: 'The confirmation word is invalid; type SUPPRIMER, DELETE or حذف.',
} as const;
