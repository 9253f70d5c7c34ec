import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PublicConfig, SOURCE_PATH } from '@tazamun/contracts/auth';
import { APP_VERSION } from '@tazamun/contracts/limits';
import { errorMessage } from '@tazamun/contracts/errors';
import { pingDatabase } from '../../db/database.ts';
import { requestLanguage } from '../../plugins/language.ts';
import { RETRY_AFTER_SECONDS } from '../../reliability/unavailable.ts';
import { checkReadiness } from './readiness.ts';

const Health = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  db: z.enum(['ok', 'error']),
});

const ReadyBody = z.object({
  ready: z.literal(true),
  degraded: z.boolean(),
  checks: z.record(z.string(), z.string()),
});

const NotReadyBody = z.object({
  code: z.literal('service_unavailable'),
  detail: z.string(),
  request_id: z.string(),
  ready: z.literal(false),
  degraded: z.literal(false),
  checks: z.record(z.string(), z.string()),
});

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.get(
    '/health/',
    {
      schema: {
        tags: ['system'],
        security: [],
        summary: 'Liveness: the process answers; db says whether SQL works',
        response: { 200: Health },
      },
    },
    async () => {
      const db = (await pingDatabase(deps.db)) ? 'ok' : 'error';
      return { status: db === 'ok' ? 'ok' : 'degraded', version: APP_VERSION, db } as const;
    },
  );

  app.get(
    '/ready/',
    {
      schema: {
        tags: ['system'],
        security: [],
        summary:
          'Readiness for a load balancer: 503 when this instance cannot serve, 200 (maybe degraded) otherwise',
        description:
          'Answers within half a second. 503 service_unavailable (with Retry-After) when the database does ' +
          'not answer or take writes, or a migration is pending (also while the process still waits for ' +
          'its database at start). 200 with degraded: true when it serves but Redis is away, waiting jobs ' +
          'find no live worker or the files disk is below MIN_FREE_DISK_MB; `checks` says which.',
        response: { 200: ReadyBody, 503: NotReadyBody },
      },
    },
    async (request, reply) => {
      const r = await checkReadiness(app);
      if (r.ready) return { ready: true as const, degraded: r.degraded, checks: r.checks };
      // An expected state, probed every few seconds: the outage itself is logged once by the dependency
      // watch, each probe's answer only at debug.
      request.log.debug({ checks: r.checks }, 'not ready');
      return reply
        .code(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .type('application/json; charset=utf-8')
        .send({
          code: 'service_unavailable',
          detail: errorMessage('service_unavailable', requestLanguage(request)),
          request_id: request.id,
          ready: false,
          degraded: false,
          checks: r.checks,
        });
    },
  );

  app.get(
    '/config/',
    {
      schema: {
        tags: ['system'],
        security: [],
        summary: 'Public settings for the web shell (organisation, support mail)',
        response: { 200: PublicConfig },
      },
    },
    async () => ({
      version: APP_VERSION,
      org_name: deps.config.orgName,
      org_url: deps.config.orgUrl,
      org_logo_url: deps.config.orgLogoUrl,
      support_email: deps.config.supportEmail,
      auto_approve: deps.config.autoApprove,
      default_daily_quota: deps.config.defaultDailyQuota,
      docs_url: '/docs',
      source_url: deps.config.sourceUrl ?? SOURCE_PATH,
    }),
  );
};
