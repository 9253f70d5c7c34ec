// Profile, password change, preferences, daily quota and usage statistics of the signed-in user.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ChangePasswordRequest,
  Preferences,
  PreferencesUpdate,
  ProfileUpdate,
  QuotaResetRequest,
  QuotaResponse,
  Stats,
  User,
} from '@tazamun/contracts/auth';
import { changePassword, updatePreferences, updateProfile } from '../../commands/accounts.ts';
import { presentQuota, presentUser } from '../../accounts/present-user.ts';
import { utcDay } from '../../clock.ts';
import { createError } from '../../errors.ts';
import { userStats } from '../../db/alignments.ts';
import { getPreferences } from '../../db/preferences.ts';
import { consumeQuota, findUserById, resetQuota } from '../../db/users.ts';
import { BODY_LIMITS } from '../../reliability/body-limits.ts';
import {
  auth,
  requireAdmin,
  requireApproved,
  requireSession,
  requireUser,
} from '../../plugins/auth-guard.ts';

export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.get(
    '/profile/',
    {
      onRequest: requireUser,
      schema: { tags: ['profile'], summary: 'The signed-in user', response: { 200: User } },
    },
    async (request) => presentUser(deps, auth(request).user),
  );

  app.patch(
    '/profile/',
    {
      bodyLimit: BODY_LIMITS.form,
      onRequest: requireApproved,
      schema: {
        tags: ['profile'],
        summary: 'Change names, interface language or preferences',
        body: ProfileUpdate,
        response: { 200: User },
      },
    },
    async (request) => {
      const { user } = auth(request);
      await updateProfile(deps, user, request.body);
      return presentUser(deps, (await findUserById(deps.db, user.id))!);
    },
  );

  app.post(
    '/change-password/',
    {
      bodyLimit: BODY_LIMITS.credentials,
      onRequest: requireSession,
      schema: {
        tags: ['profile'],
        summary: 'Change the password; every other session is revoked, the current one kept',
        body: ChangePasswordRequest,
        response: { 200: z.object({ detail: z.string(), revoked_sessions: z.number().int() }) },
      },
    },
    async (request) => {
      const { user, sessionId } = auth(request);
      const revoked = await changePassword(deps, user, sessionId, request.body);
      return { detail: 'Password changed.', revoked_sessions: revoked };
    },
  );

  app.get(
    '/preferences/',
    {
      onRequest: requireUser,
      schema: { tags: ['profile'], summary: 'Preferences', response: { 200: Preferences } },
    },
    async (request) => getPreferences(deps.db, auth(request).user.id),
  );

  app.patch(
    '/preferences/',
    {
      bodyLimit: BODY_LIMITS.form,
      onRequest: requireApproved,
      schema: {
        tags: ['profile'],
        summary: 'Change some preferences; the others keep their values',
        body: PreferencesUpdate,
        response: { 200: Preferences },
      },
    },
    async (request) => {
      return updatePreferences(deps, auth(request).user, request.body);
    },
  );

  app.get(
    '/quota/',
    {
      onRequest: requireApproved,
      schema: { tags: ['quota'], summary: 'Daily alignment quota', response: { 200: QuotaResponse } },
    },
    async (request) => ({ quota: presentQuota(auth(request).user, deps.clock.now()) }),
  );

  app.post(
    '/quota/use/',
    {
      bodyLimit: BODY_LIMITS.token,
      onRequest: requireApproved,
      schema: {
        tags: ['quota'],
        summary: 'Consume one unit of today’s quota (atomic); 429 quota_exhausted when none is left',
        response: { 200: QuotaResponse },
      },
    },
    async (request) => {
      const { user } = auth(request);
      const now = deps.clock.now();
      const ok = await consumeQuota(deps.db, user.id, utcDay(now));
      const fresh = (await findUserById(deps.db, user.id))!;
      if (!ok) {
        throw createError(
          'quota_exhausted',
          { limit: fresh.daily_limit },
          { quota: presentQuota(fresh, now) },
        );
      }
      return { quota: presentQuota(fresh, now) };
    },
  );

  app.post(
    '/quota/reset/',
    {
      bodyLimit: BODY_LIMITS.token,
      onRequest: requireAdmin,
      schema: {
        tags: ['quota'],
        summary: 'Admin only: set a user’s usage for today back to zero',
        body: QuotaResetRequest,
        response: { 200: QuotaResponse },
      },
    },
    async (request) => {
      const { user } = auth(request);
      const target = request.body?.user_id ? await findUserById(deps.db, request.body.user_id) : user;
      if (!target) throw createError('not_found');
      const now = deps.clock.now();
      await resetQuota(deps.db, target.id, utcDay(now));
      return { quota: presentQuota((await findUserById(deps.db, target.id))!, now) };
    },
  );

  app.get(
    '/stats/',
    {
      onRequest: requireApproved,
      schema: { tags: ['quota'], summary: 'Alignment statistics of the caller', response: { 200: Stats } },
    },
    async (request) => userStats(deps.db, auth(request).user.id),
  );
};
