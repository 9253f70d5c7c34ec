import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PublicConfig, SOURCE_PATH } from '@tazamun/contracts/auth';
import { APP_VERSION } from '@tazamun/contracts/limits';
import { createError } from '../../errors.ts';
import { pendingMigrations, pingDatabase, probeDatabaseWrite } from '../../db/database.ts';

const Health = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  db: z.enum(['ok', 'error']),
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
          'Readiness: database reachable, fully migrated and taking writes, Redis answering when REDIS_URL is set; 503 otherwise',
        response: { 200: z.object({ ready: z.literal(true) }) },
      },
    },
    async () => {
      const ok =
        (await pingDatabase(deps.db)) &&
        (await pendingMigrations(deps.db)) === 0 &&
        // reads alone are not enough: a full disk answers selects and refuses every sign-in
        (await probeDatabaseWrite(deps.db, deps.clock.now().toISOString())) &&
        (app.redisSignals ? await app.redisSignals.ping() : true);
      if (!ok) throw createError('service_unavailable');
      return { ready: true as const };
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
