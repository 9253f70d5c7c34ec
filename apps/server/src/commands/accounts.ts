// Account commands shared by the HTTP routes and the admin CLI: validate → write (in a transaction
// when it is more than one row) → side effects (mail, files) after the rows are safe.
import { randomUUID } from 'node:crypto';
import { DEFAULT_PREFERENCES, DELETE_CONFIRMATION_WORDS } from '@tazamun/contracts/auth';
import type {
  Preferences,
  PreferencesUpdate,
  ProfileUpdate,
  RegisterRequest,
  Tokens,
} from '@tazamun/contracts/auth';
import { LIMITS } from '@tazamun/contracts/limits';
import { utcDay } from '../clock.ts';
import type { AppDeps } from '../context.ts';
import { createError, FIELD_MESSAGES, FieldErrorCollector } from '../errors.ts';
import { clearLoginAttempts, lockAccount, reserveLoginAttempt } from '../db/login-attempts.ts';
import {
  consumePasswordReset,
  deletePasswordResets,
  findValidPasswordReset,
  insertPasswordReset,
  revokePasswordResets,
} from '../db/password-resets.ts';
import { getPreferences, savePreferences } from '../db/preferences.ts';
import type { UserRow } from '../db/schema.ts';
import { deleteUserApiTokens } from '../db/api-tokens.ts';
import { deleteOutboxFor } from '../db/email-outbox.ts';
import { deleteUserSessions } from '../db/sessions.ts';
import { deleteUserShares } from '../db/shares.ts';
import { deleteUser, findUserByEmail, findUserById, insertUser, updateUser } from '../db/users.ts';
import { checkEmail, checkName, checkNewPassword, normaliseEmail } from '../accounts/account-validation.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../accounts/password-hash.ts';
import { openSession } from '../accounts/sessions.ts';
import type { ClientInfo } from '../accounts/sessions.ts';
import { newOpaqueToken, sha256 } from '../accounts/tokens.ts';

const LOCK_WINDOW_MS = LIMITS.lockoutMinutes * 60_000;

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === '23505' ||
    /UNIQUE constraint/.test(e?.message ?? '')
  );
}

export interface NewAccount extends RegisterRequest {
  role?: UserRow['role'];
  approved?: boolean;
}

/** Validates and inserts a user with default preferences. Throws field errors, all at once. */
export async function createAccount(deps: AppDeps, input: NewAccount): Promise<UserRow> {
  const errors = new FieldErrorCollector();
  const first = checkName(errors, 'first_name', input.first_name);
  const last = checkName(errors, 'last_name', input.last_name);
  const email = checkEmail(errors, 'email', input.email);
  checkNewPassword(
    errors,
    { password: 'password', confirm: 'password_confirm' },
    input.password,
    input.password_confirm,
    {
      first_name: first,
      last_name: last,
      email,
    },
  );
  if (!errors.has('email') && (await findUserByEmail(deps.db, email)))
    errors.add('email', FIELD_MESSAGES.emailExists);
  errors.throwIfAny();

  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const row: UserRow = {
    id: randomUUID(),
    email,
    email_key: normaliseEmail(email).key,
    first_name: first,
    last_name: last,
    password_hash: await hashPassword(input.password),
    role: input.role ?? 'user',
    status: input.approved ? 'approved' : 'pending',
    preferred_language: DEFAULT_PREFERENCES.language,
    avatar_file: null,
    daily_limit: deps.config.defaultDailyQuota,
    used_today: 0,
    quota_day: utcDay(now),
    created_at: nowIso,
    updated_at: nowIso,
    last_login_at: null,
    password_changed_at: nowIso,
  };
  try {
    await deps.db.transaction().execute(async (trx) => {
      await insertUser(trx, row);
      await savePreferences(trx, row.id, { ...DEFAULT_PREFERENCES }, nowIso);
    });
  } catch (err) {
    // Two registrations of one address raced past the lookup above.
    if (isUniqueViolation(err))
      throw createError('validation_error', {}, { email: [FIELD_MESSAGES.emailExists] });
    throw err;
  }
  return row;
}

export async function register(
  deps: AppDeps,
  input: RegisterRequest,
  client: ClientInfo,
): Promise<{ user: UserRow; tokens: Tokens }> {
  const user = await createAccount(deps, { ...input, approved: deps.config.autoApprove });
  const { tokens } = await openSession(deps, user, false, client);
  return { user, tokens };
}

/**
 * Password login with per-address throttling: 5 failures within 15 minutes lock the address for
 * 15 minutes. Unknown addresses get the same answers as known ones.
 */
export async function login(
  deps: AppDeps,
  input: { email: string; password: string; remember_me?: boolean | undefined },
  client: ClientInfo,
): Promise<{ user: UserRow; tokens: Tokens }> {
  const blank = new FieldErrorCollector();
  if (input.email.trim() === '') blank.add('email', FIELD_MESSAGES.blank);
  if (input.password === '') blank.add('password', FIELD_MESSAGES.blank);
  blank.throwIfAny();
  const max = LIMITS.maxLoginAttempts;
  const now = deps.clock.now();
  const key = normaliseEmail(input.email).key;
  // The attempt is counted before the slow hash: parallel attempts cannot all see "not locked yet".
  const { attempt, lockedUntil } = await reserveLoginAttempt(
    deps.db,
    key,
    now.toISOString(),
    new Date(now.getTime() - LOCK_WINDOW_MS).toISOString(),
  );
  if ((lockedUntil && lockedUntil > now.toISOString()) || attempt > max) {
    // beyond the allowed count while the last allowed ones are still being checked: locked as well
    const until = lockedUntil ? Date.parse(lockedUntil) : now.getTime() + LOCK_WINDOW_MS;
    const minutes = Math.max(1, Math.ceil((until - now.getTime()) / 60_000));
    throw createError(
      'account_locked',
      { minutes },
      { lockout_minutes: minutes, max_attempts: max, attempts_remaining: 0 },
    );
  }

  const user = key ? await findUserByEmail(deps.db, key) : undefined;
  const ok = user
    ? await verifyPassword(user.password_hash, input.password)
    : (await burnPasswordCheck(input.password), false);
  if (!ok || !user) {
    if (attempt >= max) {
      await lockAccount(deps.db, key, new Date(now.getTime() + LOCK_WINDOW_MS).toISOString());
      const minutes = LIMITS.lockoutMinutes;
      throw createError(
        'too_many_attempts',
        { minutes },
        { lockout_minutes: minutes, max_attempts: max, attempts_remaining: 0 },
      );
    }
    throw createError('invalid_credentials', {}, { attempts_remaining: max - attempt, max_attempts: max });
  }
  await clearLoginAttempts(deps.db, key);
  if (user.status === 'rejected') throw createError('account_rejected');
  await updateUser(deps.db, user.id, { last_login_at: now.toISOString() });
  const { tokens } = await openSession(deps, user, input.remember_me === true, client);
  return { user: { ...user, last_login_at: now.toISOString() }, tokens };
}

/**
 * The new hash; every reset link still out for the old password, and every personal API token, dies
 * with it (a token made by whoever knew the old password must not outlive the change).
 */
async function setPassword(deps: AppDeps, user: UserRow, password: string): Promise<void> {
  const nowIso = deps.clock.now().toISOString();
  const hash = await hashPassword(password);
  await deps.db.transaction().execute(async (trx) => {
    await updateUser(trx, user.id, { password_hash: hash, password_changed_at: nowIso, updated_at: nowIso });
    await revokePasswordResets(trx, user.id, nowIso);
    await deleteUserApiTokens(trx, user.id);
  });
  await clearLoginAttempts(deps.db, user.email_key);
}

export async function changePassword(
  deps: AppDeps,
  user: UserRow,
  currentSessionId: string,
  input: { current_password: string; new_password: string; new_password_confirm: string },
): Promise<number> {
  const errors = new FieldErrorCollector();
  if (input.current_password === '') errors.add('current_password', FIELD_MESSAGES.blank);
  else if (!(await verifyPassword(user.password_hash, input.current_password))) {
    errors.add('current_password', FIELD_MESSAGES.wrongPassword);
  }
  checkNewPassword(
    errors,
    { password: 'new_password', confirm: 'new_password_confirm' },
    input.new_password,
    input.new_password_confirm,
    user,
  );
  errors.throwIfAny();
  await setPassword(deps, user, input.new_password);
  return deleteUserSessions(deps.db, user.id, currentSessionId);
}

/**
 * Names, interface language and preferences changed together. The two names of the interface language
 * (the user's `preferred_language` and the preferences' `language`) stay equal whichever one is set.
 */
export async function updateProfile(deps: AppDeps, user: UserRow, body: ProfileUpdate): Promise<void> {
  const errors = new FieldErrorCollector();
  const first = body.first_name !== undefined ? checkName(errors, 'first_name', body.first_name) : undefined;
  const last = body.last_name !== undefined ? checkName(errors, 'last_name', body.last_name) : undefined;
  errors.throwIfAny();
  const nowIso = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    await updateUser(trx, user.id, {
      ...(first !== undefined && { first_name: first }),
      ...(last !== undefined && { last_name: last }),
      ...(body.preferred_language && { preferred_language: body.preferred_language }),
      updated_at: nowIso,
    });
    if (body.preferences || body.preferred_language) {
      const current = await getPreferences(trx, user.id);
      const next = { ...current, ...body.preferences };
      if (body.preferred_language && !body.preferences?.language) next.language = body.preferred_language;
      await savePreferences(trx, user.id, next, nowIso);
      if (!body.preferred_language && body.preferences?.language) {
        await updateUser(trx, user.id, { preferred_language: body.preferences.language });
      }
    }
  });
}

/** Some preferences changed, the others kept; returns them all. */
export async function updatePreferences(
  deps: AppDeps,
  user: UserRow,
  patch: PreferencesUpdate,
): Promise<Preferences> {
  const nowIso = deps.clock.now().toISOString();
  return deps.db.transaction().execute(async (trx) => {
    const next = { ...(await getPreferences(trx, user.id)), ...patch };
    await savePreferences(trx, user.id, next, nowIso);
    if (patch.language) await updateUser(trx, user.id, { preferred_language: patch.language });
    return next;
  });
}

export async function requestPasswordReset(deps: AppDeps, email: string): Promise<void> {
  const user = await findUserByEmail(deps.db, email);
  if (!user || user.status === 'rejected') return;
  const now = deps.clock.now();
  const token = newOpaqueToken();
  await insertPasswordReset(deps.db, {
    token_hash: sha256(token),
    user_id: user.id,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + deps.config.passwordResetTtlMs).toISOString(),
    used_at: null,
  });
  const link = `${deps.config.publicUrl}/auth?view=reset&token=${encodeURIComponent(token)}`;
  const minutes = Math.round(deps.config.passwordResetTtlMs / 60_000);
  await deps.email.send({
    to: user.email,
    kind: 'password_reset',
    subject: 'Tazamun: reset your password',
    text:
      `Hello ${user.first_name},\n\nSomeone asked to reset the password of your Tazamun account. ` +
      `If it was you, open this link within ${minutes} minutes:\n\n${link}\n\n` +
      `Reset token: ${token}\n\nIf it was not you, ignore this message; your password is unchanged.\n`,
  });
}

export async function confirmPasswordReset(
  deps: AppDeps,
  input: { token: string; new_password: string; new_password_confirm: string },
): Promise<void> {
  const nowIso = deps.clock.now().toISOString();
  const hash = sha256(input.token.trim());
  const userId = await findValidPasswordReset(deps.db, hash, nowIso);
  const user = userId ? await findUserById(deps.db, userId) : undefined;
  if (!user) throw createError('reset_token_invalid');
  const errors = new FieldErrorCollector();
  checkNewPassword(
    errors,
    { password: 'new_password', confirm: 'new_password_confirm' },
    input.new_password,
    input.new_password_confirm,
    user,
  );
  errors.throwIfAny();
  if (!(await consumePasswordReset(deps.db, hash, nowIso))) throw createError('reset_token_invalid');
  await setPassword(deps, user, input.new_password);
  await deleteUserSessions(deps.db, user.id);
}

export function confirmationAccepted(word: string): boolean {
  const w = word.trim().normalize('NFC');
  return Object.values(DELETE_CONFIRMATION_WORDS).some(
    (c) => c.normalize('NFC') === w.toUpperCase() || c === w,
  );
}

/** Removes every row that belongs to the user (cascades), the mails sent to them, then their files. */
export async function deleteAccount(
  deps: AppDeps,
  user: UserRow,
  input: { password: string; confirmation: string },
): Promise<void> {
  const errors = new FieldErrorCollector();
  if (input.password === '') errors.add('password', FIELD_MESSAGES.blank);
  else if (!(await verifyPassword(user.password_hash, input.password)))
    errors.add('password', FIELD_MESSAGES.wrongPassword);
  if (!confirmationAccepted(input.confirmation))
    errors.add('confirmation', FIELD_MESSAGES.confirmationInvalid);
  errors.throwIfAny();
  await purgeAccount(deps, user);
}

export async function purgeAccount(deps: AppDeps, user: UserRow): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await deleteOutboxFor(trx, user.email_key);
    await clearLoginAttempts(trx, user.email_key);
    // the foreign key cascades too; deleted here so no link outlives the account whatever the pragma
    await deletePasswordResets(trx, user.id);
    await deleteUser(trx, user.id);
  });
  await deps.files.removeAll(user.id);
}

// ---- administration ----

export async function approveUser(deps: AppDeps, user: UserRow): Promise<UserRow> {
  const nowIso = deps.clock.now().toISOString();
  await updateUser(deps.db, user.id, { status: 'approved', updated_at: nowIso });
  if (user.status !== 'approved') {
    await deps.email.send({
      to: user.email,
      kind: 'approved',
      subject: 'Tazamun: your account is approved',
      text: `Hello ${user.first_name},\n\nYour Tazamun account is approved. Sign in at ${deps.config.publicUrl}/auth\n`,
    });
  }
  return { ...user, status: 'approved', updated_at: nowIso };
}

/** Rejected accounts keep their row (so the address cannot simply re-register) but lose every session, API token, reset link and share link. */
export async function rejectUser(deps: AppDeps, user: UserRow): Promise<UserRow> {
  if (user.role === 'admin') throw createError('forbidden');
  const nowIso = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    await updateUser(trx, user.id, { status: 'rejected', updated_at: nowIso });
    await deleteUserSessions(trx, user.id);
    await deleteUserApiTokens(trx, user.id);
    await revokePasswordResets(trx, user.id, nowIso);
    // public links die too (signed audio URLs are refused by the owner's status: they have no row)
    await deleteUserShares(trx, user.id);
  });
  if (user.status !== 'rejected') {
    await deps.email.send({
      to: user.email,
      kind: 'rejected',
      subject: 'Tazamun: your registration',
      text: `Hello ${user.first_name},\n\nYour registration on Tazamun was not approved.${
        deps.config.supportEmail
          ? ` Write to ${deps.config.supportEmail} if you think this is a mistake.`
          : ''
      }\n`,
    });
  }
  return { ...user, status: 'rejected', updated_at: nowIso };
}

export async function setDailyLimit(deps: AppDeps, user: UserRow, limit: number): Promise<UserRow> {
  const nowIso = deps.clock.now().toISOString();
  await updateUser(deps.db, user.id, { daily_limit: limit, updated_at: nowIso });
  return { ...user, daily_limit: limit, updated_at: nowIso };
}

export async function promoteUser(deps: AppDeps, user: UserRow): Promise<UserRow> {
  const nowIso = deps.clock.now().toISOString();
  await updateUser(deps.db, user.id, { role: 'admin', status: 'approved', updated_at: nowIso });
  return { ...user, role: 'admin', status: 'approved', updated_at: nowIso };
}
