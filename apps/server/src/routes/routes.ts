// Every route of the API, with its prefix: one line per resource, in the order they are registered.
// (A route table rather than @fastify/autoload: the server also runs as one compiled bundle, where
// there is no folder of route files to scan; docs/decisions/0060.)
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminRoutes } from './admin/admin-routes.ts';
import { adminJobRoutes } from './admin/job-routes.ts';
import { alignmentRoutes } from './alignments/alignment-routes.ts';
import { accountRoutes } from './auth/account-routes.ts';
import { apiTokenRoutes } from './auth/api-token-routes.ts';
import { avatarRoutes } from './auth/avatar-routes.ts';
import { profileRoutes } from './auth/profile-routes.ts';
import { sessionRoutes } from './auth/session-routes.ts';
import { adminDemoRoutes, demoRoutes } from './demos/demo-routes.ts';
import { exportRoutes } from './exports/export-routes.ts';
import { feedbackRoutes } from './feedback/feedback-routes.ts';
import { languageRoutes } from './languages/language-routes.ts';
import { lexiconRoutes } from './lexicon/lexicon-routes.ts';
import { batchRoutes } from './projects/batch-routes.ts';
import { projectExportRoutes } from './projects/project-export-routes.ts';
import { modelRoutes } from './projects/model-routes.ts';
import { projectRoutes } from './projects/project-routes.ts';
import { revisionRoutes } from './revisions/revision-routes.ts';
import { publicShareRoutes, shareManagementRoutes } from './share/share-routes.ts';
import { sourceRoutes } from './source/source-routes.ts';
import { metricsRoute } from './system/metrics-route.ts';
import { systemRoutes } from './system/system-routes.ts';

const API_ROUTES: [FastifyPluginAsyncZod, string][] = [
  [systemRoutes, '/api'],
  [sessionRoutes, '/api/auth'],
  [profileRoutes, '/api/auth'],
  [avatarRoutes, '/api/auth'],
  [accountRoutes, '/api/auth'],
  [apiTokenRoutes, '/api/auth'],
  [feedbackRoutes, '/api/feedback'],
  [adminRoutes, '/api/admin'],
  [adminJobRoutes, '/api/admin'],
  [alignmentRoutes, '/api/alignments'],
  [exportRoutes, '/api/alignments'],
  [revisionRoutes, '/api/alignments'],
  [shareManagementRoutes, '/api/alignments'],
  [publicShareRoutes, '/api/share'],
  [projectRoutes, '/api/projects'],
  [batchRoutes, '/api/projects'],
  [projectExportRoutes, '/api/projects'],
  [modelRoutes, '/api/projects'],
  [lexiconRoutes, '/api/lexicon'],
  [demoRoutes, '/api/demos'],
  [adminDemoRoutes, '/api/admin'],
  [languageRoutes, '/api'],
  [sourceRoutes, '/api/source'],
];

export async function registerRoutes(app: FastifyInstance): Promise<void> {
  for (const [routes, prefix] of API_ROUTES) await app.register(routes, { prefix });
  // Prometheus' conventional path, outside /api
  await app.register(metricsRoute);
}
