// Job administration for administrators: the queued, running and failed jobs with the engine's error,
// the worker, attempts and timings; retry a failed job, cancel a queued or running one.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ADMIN_JOB_STATUSES, AdminJobAction, AdminJobList } from '@tazamun/contracts/admin-jobs';
import { createError } from '../../errors.ts';
import { retryJob } from '../../commands/retry-job.ts';
import { findJob, listJobs } from '../../jobs/job-admin.ts';
import { requireAdmin } from '../../plugins/auth-guard.ts';

const JobParams = z.object({ id: z.string() });

export const adminJobRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.deps.db;
  app.addHook('onRequest', requireAdmin);

  app.get(
    '/jobs/',
    {
      schema: {
        tags: ['admin'],
        summary: 'Jobs, newest first: waiting, running and failed ones unless a status is given',
        querystring: z.object({ status: z.enum(ADMIN_JOB_STATUSES).optional() }),
        response: { 200: AdminJobList },
      },
    },
    async (request) => ({ jobs: await listJobs(db, request.query.status) }),
  );

  app.post(
    '/jobs/:id/retry/',
    {
      schema: {
        tags: ['admin'],
        summary: 'Run a failed job again (attempts start over; 409 job_not_retryable otherwise)',
        params: JobParams,
        response: { 200: AdminJobAction },
      },
    },
    async (request) => {
      const job = await retryJob(db, app.jobs.config, request.params.id);
      app.jobs.queue.wake();
      request.log.info({ job: job.id, alignment: job.alignment_id }, 'job retried by an administrator');
      return { job, result: 'retried' as const };
    },
  );

  app.post(
    '/jobs/:id/cancel/',
    {
      schema: {
        tags: ['admin'],
        summary: 'Cancel a queued or running job (409 job_not_cancellable otherwise)',
        params: JobParams,
        response: { 200: AdminJobAction },
      },
    },
    async (request) => {
      const before = await findJob(db, request.params.id);
      const r = await app.jobs.queue.cancel(before.id);
      if (r === 'not_cancellable') throw createError('job_not_cancellable', { status: before.status });
      request.log.info({ job: before.id, result: r }, 'job cancelled by an administrator');
      return { job: await findJob(db, before.id), result: r };
    },
  );
};
