// Register, login, token refresh, logout and the list of one's signed-in devices.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LoginRequest,
  LoginResponse,
  LogoutRequest,
  RefreshRequest,
  RefreshResponse,
  RegisterRequest,
  RegisterResponse,
  RevokedCount,
  SessionList,
} from '@tazamun/contracts/auth';
import { login, register } from '../../commands/accounts.ts';
import { presentUser } from '../../accounts/present-user.ts';
import { closeSessionByRefresh, describeDevice, refreshSession } from '../../accounts/sessions.ts';
import { createError } from '../../errors.ts';
import { deleteSession, deleteUserSessions, listUserSessions } from '../../db/sessions.ts';
import { BODY_LIMITS } from '../../reliability/body-limits.ts';
import { auth, authenticate, clientInfo, requireSession } from '../../plugins/auth-guard.ts';

const Detail = z.object({ detail: z.string() });

export const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const limited = { rateLimit: { max: deps.config.authRateLimitPerMinute, timeWindow: '1 minute' } };

  app.post(
    '/register/',
    {
      bodyLimit: BODY_LIMITS.form,
      config: limited,
      schema: {
        tags: ['auth'],
        security: [],
        summary: 'Create an account; it waits for approval unless AUTO_APPROVE is on',
        body: RegisterRequest,
        response: { 201: RegisterResponse },
      },
    },
    async (request, reply) => {
      const { user, tokens } = await register(deps, request.body, clientInfo(request));
      const presented = await presentUser(deps, user);
      return reply.code(201).send({ tokens, user: presented, waitlist: !presented.is_approved });
    },
  );

  app.post(
    '/login/',
    {
      bodyLimit: BODY_LIMITS.credentials,
      config: limited,
      schema: {
        tags: ['auth'],
        security: [],
        summary: 'Sign in; 401 with attempts_remaining, 429 when locked',
        body: LoginRequest,
        response: { 200: LoginResponse },
      },
    },
    async (request) => {
      const { user, tokens } = await login(deps, request.body, clientInfo(request));
      return { tokens, user: await presentUser(deps, user) };
    },
  );

  app.post(
    '/token/refresh/',
    {
      bodyLimit: BODY_LIMITS.token,
      config: limited,
      schema: {
        tags: ['auth'],
        security: [],
        summary: 'Rotate a refresh token; a reused one revokes its session',
        body: RefreshRequest,
        response: { 200: RefreshResponse },
      },
    },
    async (request) => refreshSession(deps, request.body.refresh),
  );

  app.post(
    '/logout/',
    {
      bodyLimit: BODY_LIMITS.token,
      schema: {
        tags: ['auth'],
        security: [],
        summary: 'Revoke the session of the refresh token (or of the access token)',
        body: LogoutRequest.nullish(),
        response: { 200: Detail },
      },
    },
    async (request) => {
      const refresh = request.body?.refresh;
      let closed = refresh ? await closeSessionByRefresh(deps, refresh) : false;
      if (!closed && request.headers.authorization) {
        const ctx = await authenticate(request).catch(() => null);
        if (ctx) closed = (await deleteSession(deps.db, ctx.sessionId)) > 0;
      }
      return { detail: closed ? 'Logged out.' : 'No active session matched; nothing to do.' };
    },
  );

  app.get(
    '/sessions/',
    {
      onRequest: requireSession,
      schema: {
        tags: ['sessions'],
        summary: 'Signed-in devices of the caller',
        response: { 200: SessionList },
      },
    },
    async (request) => {
      const { user, sessionId } = auth(request);
      const rows = await listUserSessions(deps.db, user.id, deps.clock.now().toISOString());
      return {
        sessions: rows.map((s) => ({
          id: s.id,
          user_agent: s.user_agent,
          device: describeDevice(s.user_agent),
          ip: s.ip,
          created_at: s.created_at,
          last_used_at: s.last_used_at,
          expires_at: s.expires_at,
          remember_me: s.remember_me === 1,
          current: s.id === sessionId,
        })),
      };
    },
  );

  app.delete(
    '/sessions/:id/',
    {
      onRequest: requireSession,
      schema: {
        tags: ['sessions'],
        summary: 'Revoke one of the caller’s sessions',
        params: z.object({ id: z.string() }),
        response: { 200: RevokedCount },
      },
    },
    async (request) => {
      const { user } = auth(request);
      const revoked = await deleteSession(deps.db, request.params.id, user.id);
      if (revoked === 0) throw createError('not_found');
      return { revoked };
    },
  );

  app.post(
    '/sessions/revoke-others/',
    {
      bodyLimit: BODY_LIMITS.token,
      onRequest: requireSession,
      schema: {
        tags: ['sessions'],
        summary: 'Revoke every session but the current one',
        response: { 200: RevokedCount },
      },
    },
    async (request) => {
      const { user, sessionId } = auth(request);
      return { revoked: await deleteUserSessions(deps.db, user.id, sessionId) };
    },
  );
};
