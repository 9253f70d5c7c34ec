// Administration of accounts: the waiting list, approval, rejection, quotas and the feedback inbox;
// and the processes running jobs (their heartbeats).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WorkerList } from '@tazamun/contracts/admin-workers';
import {
  AdminQuotaUpdate,
  AdminUser,
  AdminUserList,
  APPROVAL_STATUSES,
  Feedback,
} from '@tazamun/contracts/auth';
import { approveUser, rejectUser, setDailyLimit } from '../../commands/accounts.ts';
import { presentAdminUser } from '../../accounts/present-user.ts';
import { createError } from '../../errors.ts';
import { listFeedback } from '../../db/feedback.ts';
import { findUserById, listUsers } from '../../db/users.ts';
import { requireAdmin } from '../../plugins/auth-guard.ts';
import { listWorkers } from '../../jobs/worker-registry.ts';

const UserParams = z.object({ id: z.string() });
const UserResponse = z.object({ user: AdminUser });

export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  app.addHook('onRequest', requireAdmin);

  app.get(
    '/workers/',
    {
      schema: {
        tags: ['admin'],
        summary: 'Processes running jobs, from their heartbeats: live count, runs completed and failed',
        response: { 200: WorkerList },
      },
    },
    // the wall clock: heartbeats are written with it, whatever clock the app was given
    async () => listWorkers(deps.db, new Date()),
  );

  const target = async (id: string) => {
    const user = await findUserById(deps.db, id);
    if (!user) throw createError('not_found');
    return user;
  };

  app.get(
    '/users/',
    {
      schema: {
        tags: ['admin'],
        summary: 'List accounts, optionally by approval status',
        querystring: z.object({ status: z.enum(APPROVAL_STATUSES).optional() }),
        response: { 200: AdminUserList },
      },
    },
    async (request) => {
      const rows = await listUsers(deps.db, request.query.status);
      return { users: await Promise.all(rows.map((r) => presentAdminUser(deps, r))) };
    },
  );

  app.post(
    '/users/:id/approve/',
    {
      schema: {
        tags: ['admin'],
        summary: 'Approve an account (mails the user)',
        params: UserParams,
        response: { 200: UserResponse },
      },
    },
    async (request) => ({
      user: await presentAdminUser(deps, await approveUser(deps, await target(request.params.id))),
    }),
  );

  app.post(
    '/users/:id/reject/',
    {
      schema: {
        tags: ['admin'],
        summary: 'Reject an account: its sessions end and it can no longer sign in',
        params: UserParams,
        response: { 200: UserResponse },
      },
    },
    async (request) => ({
      user: await presentAdminUser(deps, await rejectUser(deps, await target(request.params.id))),
    }),
  );

  app.patch(
    '/users/:id/quota/',
    {
      schema: {
        tags: ['admin'],
        summary: 'Set an account’s daily alignment limit',
        params: UserParams,
        body: AdminQuotaUpdate,
        response: { 200: UserResponse },
      },
    },
    async (request) => ({
      user: await presentAdminUser(
        deps,
        await setDailyLimit(deps, await target(request.params.id), request.body.daily_limit),
      ),
    }),
  );

  app.get(
    '/feedback/',
    {
      schema: {
        tags: ['admin'],
        summary: 'Feedback inbox, newest first',
        response: { 200: z.object({ feedback: z.array(Feedback) }) },
      },
    },
    async () => ({ feedback: await listFeedback(deps.db) }),
  );
};
