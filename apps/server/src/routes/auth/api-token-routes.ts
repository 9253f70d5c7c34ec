// /api/auth/tokens/: personal API tokens for scripts (create, list, revoke). Managed from a signed-in
// session only; the secret is in the 201 answer and nowhere else.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiTokenCreate, ApiTokenCreated, ApiTokenList } from '@tazamun/contracts/api-tokens';
import { createApiToken, presentApiToken } from '../../accounts/api-tokens.ts';
import { deleteApiToken, listApiTokens } from '../../db/api-tokens.ts';
import { createError } from '../../errors.ts';
import { auth, requireApprovedSession } from '../../plugins/auth-guard.ts';

export const apiTokenRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.post(
    '/tokens/',
    {
      onRequest: requireApprovedSession,
      schema: {
        tags: ['tokens'],
        summary: 'Create a personal API token (the secret is shown in this answer only)',
        body: ApiTokenCreate,
        response: { 201: ApiTokenCreated },
      },
    },
    async (request, reply) => {
      const created = await createApiToken(deps, auth(request).user.id, request.body);
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  );

  app.get(
    '/tokens/',
    {
      onRequest: requireApprovedSession,
      schema: {
        tags: ['tokens'],
        summary: 'The caller’s personal API tokens (without their secrets)',
        response: { 200: ApiTokenList },
      },
    },
    async (request) => ({
      tokens: (await listApiTokens(deps.db, auth(request).user.id)).map(presentApiToken),
    }),
  );

  app.delete(
    '/tokens/:id/',
    {
      onRequest: requireApprovedSession,
      schema: {
        tags: ['tokens'],
        summary: 'Revoke a personal API token; it stops working at once',
        params: z.object({ id: z.string().min(1).max(64) }),
      },
    },
    async (request, reply) => {
      if ((await deleteApiToken(deps.db, request.params.id, auth(request).user.id)) === 0)
        throw createError('not_found');
      return reply.code(204).send();
    },
  );
};
