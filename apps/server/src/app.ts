// The application as a factory: tests call buildApp() and app.inject(); server.ts only listens.
import { randomUUID } from 'node:crypto';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController } from 'fastify';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { APP_VERSION, LIMITS } from '@tazamun/contracts/limits';
import type { Config } from './config.ts';
import { systemClock } from './clock.ts';
import type { Clock } from './clock.ts';
import type { AppDeps } from './context.ts';
import { migrateToLatest, openDatabase, selectOne } from './db/database.ts';
import type { Db } from './db/database.ts';
import { OutboxEmailSender } from './email/email-sender.ts';
import type { EmailSender } from './email/email-sender.ts';
import { TokenService } from './accounts/tokens.ts';
import { frameworkErrors, registerErrorHandler } from './plugins/error-handler.ts';
import { acceptEmptyJsonBodies } from './plugins/json-body.ts';
import {
  capConnectionsPerAddress,
  clientErrorHandler,
  serverTimeoutOptions,
} from './reliability/connection-limits.ts';
import { refuseWritesWhenDiskLow } from './reliability/disk-space.ts';
import { serializeRequest } from './reliability/log-redaction.ts';
import { rejectNulBytes } from './reliability/input-hygiene.ts';
import { logFailure, retryWhileUnavailable } from './reliability/unavailable.ts';
import { DependencyWatch } from './reliability/dependency-watch.ts';
import { createError } from './errors.ts';
import { limitAuthByEmail } from './reliability/email-rate-limit.ts';
import { RedisSignals } from './queue/redis-signals.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { referenceUiOptions } from './docs/reference-theme.ts';
import { adminRoutes } from './routes/admin/admin-routes.ts';
import { adminJobRoutes } from './routes/admin/job-routes.ts';
import { accountRoutes } from './routes/auth/account-routes.ts';
import { avatarRoutes } from './routes/auth/avatar-routes.ts';
import { profileRoutes } from './routes/auth/profile-routes.ts';
import { sessionRoutes } from './routes/auth/session-routes.ts';
import { apiTokenRoutes } from './routes/auth/api-token-routes.ts';
import { feedbackRoutes } from './routes/feedback/feedback-routes.ts';
import { systemRoutes } from './routes/system/system-routes.ts';
import { UserFiles, createFileStore } from './storage/user-files.ts';
import { probeGateFor } from './routes/alignments/probe-gate.ts';
import type { JobConfig } from './jobs/job-config.ts';
import { createJobsRuntime } from './jobs/jobs-runtime.ts';
import type { EngineFaultHook } from '@tazamun/aligner/host';
import { seedDemos } from './demos/seed-demos.ts';
import { underSeedLock } from './db/seed-lock.ts';
import { alignmentRoutes } from './routes/alignments/alignment-routes.ts';
import { exportRoutes } from './routes/exports/export-routes.ts';
import { revisionRoutes } from './routes/revisions/revision-routes.ts';
import { publicShareRoutes, shareManagementRoutes } from './routes/share/share-routes.ts';
import { projectRoutes } from './routes/projects/project-routes.ts';
import { batchRoutes } from './routes/projects/batch-routes.ts';
import { projectExportRoutes } from './routes/projects/project-export-routes.ts';
import { lexiconRoutes } from './routes/lexicon/lexicon-routes.ts';
import { adminDemoRoutes, demoRoutes } from './routes/demos/demo-routes.ts';
import { languageRoutes } from './routes/languages/language-routes.ts';
import { sourceRoutes } from './routes/source/source-routes.ts';
import { metricsRoute } from './routes/system/metrics-route.ts';
import { Metrics } from './metrics/metrics.ts';
import { logRequests } from './plugins/request-log.ts';

export const DEFAULT_WEB_DIST = join(dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export interface BuildOptions {
  clock?: Clock;
  email?: EmailSender;
  /** an already opened database (the caller closes it); by default one is opened from config */
  db?: Db;
  /** pino options, or false for silence in tests */
  logger?: boolean | Record<string, unknown>;
  /** queue, worker threads and demo seeding; config.jobs when absent */
  jobs?: JobConfig;
  /** sign-in/reset attempts per e-mail address per minute; config.authEmailRateLimit when absent */
  authEmailRateLimit?: number;
  /** config.redisUrl when absent; null to run without Redis */
  redisUrl?: string | null;
  /**
   * Tests only (the engine host's fault hook): lets a job trip an engine fault on purpose. The server and
   * worker entries never pass it, and no variable or request can turn it on.
   */
  engineFaultHook?: EngineFaultHook;
  /**
   * true (the default): buildApp resolves once the database is migrated. false (server.ts): it resolves
   * at once, so the process listens while its database is away; until the migration is done every API
   * route but health and readiness answers 503 with Retry-After, readiness says why, and the job queue
   * starts afterwards. `app.databaseReady` tells when.
   */
  waitForDatabase?: boolean;
}

/** The start-up migration of this process: `settled` once it is done. */
export interface DatabaseReady {
  settled: boolean;
  promise: Promise<void>;
}

/** Routes that answer while the database is not migrated yet (the probes, and the web app's files). */
const ANSWERS_WITHOUT_DATABASE = new Set(['/api/health/', '/api/ready/', '/metrics']);

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  if (!config.jwtSecret) throw new Error('config.jwtSecret is missing: call resolveJwtSecret() first');
  const jobConfig = options.jobs ?? config.jobs;
  const logger = options.logger ?? { level: config.logLevel };
  const limits = config.connectionLimits;
  const app = Fastify({
    // closing waits for the job drain (JOB_DRAIN_TIMEOUT); avvio's timeout covers onClose hooks too
    pluginTimeout: 10_000 + jobConfig.drainMs,
    // URLs are logged with their secrets (?access_token=, ?sig=, share tokens) redacted
    logger:
      logger === false
        ? false
        : { ...(logger === true ? {} : logger), serializers: { req: serializeRequest } },
    ...serverTimeoutOptions(limits),
    clientErrorHandler,
    frameworkErrors,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: false },
    // plugins/request-log.ts writes one line per request, with the user id
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<ZodTypeProvider>();
  capConnectionsPerAddress(app.server, limits.maxConnectionsPerIp, (ip) =>
    app.log.warn({ ip, max: limits.maxConnectionsPerIp }, 'connection refused: too many from one address'),
  );
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const ownsDb = !options.db;
  const db = options.db ?? openDatabase(config.database);
  // a database still starting (or restarting) is waited for, not a reason to exit
  const databaseReady: DatabaseReady = { settled: false, promise: Promise.resolve() };
  databaseReady.promise = retryWhileUnavailable('database', () => migrateToLatest(db), app.log).then(
    (applied) => {
      databaseReady.settled = true;
      // the API serves from here on (test-support/child-process.ts waits for this line)
      app.log.info({ migrations: applied }, 'database ready');
    },
  );
  const waitForDatabase = options.waitForDatabase ?? true;
  if (waitForDatabase) await databaseReady.promise;
  app.decorate('databaseReady', databaseReady);
  app.addHook('onRequest', async (request) => {
    if (databaseReady.settled) return;
    const route = request.routeOptions.url ?? '';
    if (!route.startsWith('/api/') || ANSWERS_WITHOUT_DATABASE.has(route)) return;
    throw createError('service_unavailable');
  });

  const clock = options.clock ?? systemClock;
  const deps: AppDeps = {
    config,
    db,
    clock,
    tokens: new TokenService(config.jwtSecret, config.accessTokenTtlMs, clock),
    email: options.email ?? new OutboxEmailSender(db, clock, app.log),
    files: new UserFiles(config.dataDir, createFileStore(config.dataDir, config.s3)),
  };
  app.decorate('deps', deps);
  app.decorate('probeGate', probeGateFor(config));
  app.decorateRequest('auth', null);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  if (ownsDb) app.addHook('onClose', async () => db.destroy());

  const metrics = new Metrics('api');
  app.decorate('metrics', metrics);
  metrics.watchDatabase(db, config.dataDir);
  logRequests(app, metrics);
  // one log line when the database or Redis goes, one when it is back (reliability/dependency-watch.ts)
  const watch = new DependencyWatch(app.log);
  watch.watch('database', () => selectOne(db));
  app.addHook('onClose', async () => watch.stop());

  // REDIS_URL: BullMQ dispatches the jobs, and wake-ups and progress reach the other processes at once
  const redisUrl = options.redisUrl !== undefined ? options.redisUrl : config.redisUrl;
  const jobs = createJobsRuntime(
    db,
    deps.files,
    jobConfig,
    app.log,
    () => clock.now(),
    redisUrl,
    metrics,
    options.engineFaultHook ?? null,
  );
  app.decorate('jobs', jobs);
  let seedTimer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    // temp copies a crashed process left in DATA_DIR/tmp (uploads being checked, tool inputs)
    void deps.files
      .sweepTemp()
      .then((n) => n && app.log.info({ removed: n }, 'old temp files removed'))
      .catch((err: unknown) => app.log.warn({ err }, 'temp sweep failed'));
    // the queue reads and claims rows: it starts once the database is migrated
    if (waitForDatabase) await jobs.queue.start();
    else
      void databaseReady.promise
        .then(() => jobs.queue.start())
        .catch((err: unknown) => app.log.error({ err }, 'the job queue did not start'));
    const dir = jobConfig.demoMediaDir;
    if (jobConfig.seedDemos && dir) {
      // A little after start-up, so the first requests do not compete with copying and aligning.
      seedTimer = setTimeout(() => {
        // one process seeds; the others starting with it skip (demos/seed-lock.ts)
        void databaseReady.promise
          .then(() => underSeedLock(db, () => seedDemos(app, dir)))
          .then((r) => r === null && app.log.info({ dir }, 'demo seeding left to another process'))
          .catch((err: unknown) => app.log.error({ err, dir }, 'demo seeding failed'));
      }, 3000);
      seedTimer.unref();
    }
  });
  app.addHook('preClose', async () => {
    if (seedTimer) clearTimeout(seedTimer);
    await jobs.close();
  });
  const signals = redisUrl ? new RedisSignals(redisUrl, jobs.queue, app.log) : null;
  app.decorate('redisSignals', signals);
  if (signals) {
    metrics.addRedis('signals', () => signals.ping());
    watch.watch('redis', () => signals.ping());
    app.addHook('onReady', async () => signals.start());
    app.addHook('onClose', async () => signals.close());
  }

  registerErrorHandler(app);
  acceptEmptyJsonBodies(app);
  rejectNulBytes(app);
  refuseWritesWhenDiskLow(app, config.dataDir, () => config.minFreeDiskBytes);
  // REDIS_URL: rate-limit counters shared by every API process (per IP and per e-mail address); ioredis
  // is loaded only then
  const limitRedis = redisUrl
    ? new (await import('ioredis')).Redis(redisUrl, {
        maxRetriesPerRequest: 1,
        // a request waits at most this long for a counter before the limiter lets it through
        commandTimeout: 1000,
        connectTimeout: 2000,
        retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
      })
    : null;
  if (limitRedis) {
    metrics.addRedis('rate_limits', async () => (await limitRedis.ping()) === 'PONG');
    // connection errors repeat at every reconnect; the dependency watch says once that Redis is away
    limitRedis.on('error', (err: Error) => logFailure(app.log, 'warn', err, 'redis (rate limits)'));
    // counters have nothing to flush, and QUIT would wait for a Redis that may be gone
    app.addHook('onClose', async () => limitRedis.disconnect());
  }
  limitAuthByEmail(app, options.authEmailRateLimit ?? config.authEmailRateLimit, limitRedis);

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        mediaSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        // wavesurfer and the upload preview fetch blob: URLs of local files.
        connectSrc: ["'self'", 'blob:', 'data:'],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyCors, {
    origin: config.corsOrigin ?? false,
    credentials: false,
    methods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'],
  });
  await app.register(fastifyRateLimit, {
    global: false,
    ...(limitRedis
      ? // skipOnError: with Redis away a sign-in is let through (the database lockout still applies)
        { redis: limitRedis, nameSpace: 'tazamun:rl:ip:', skipOnError: true }
      : {}),
  });
  await app.register(fastifyMultipart, { limits: { fileSize: LIMITS.audioMaxBytes, files: 1, fields: 20 } });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Tazamun API',
        version: APP_VERSION,
        description:
          'The Tazamun alignment platform: accounts and sessions, uploads and alignment jobs, results, ' +
          'corrections (revisions), exports and videos, projects and batches, the personal lexicon, share ' +
          'links, demos and administration.\n\nErrors have the shape ' +
          '`{code, detail, <field>: [messages], non_field_errors}`, with `detail` in the language of ' +
          '`?lang=` or `Accept-Language`. Authenticate with `Authorization: Bearer <token>` (an access ' +
          'token from `/api/auth/login/`, or a personal API token from the profile page).\n\n' +
          '[Back to Tazamun](/)',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  // Swagger UI loads only same-origin scripts, so the app-wide CSP above covers it unchanged.
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    uiConfig: { validatorUrl: null, docExpansion: 'none', filter: true, tryItOutEnabled: false },
    ...referenceUiOptions(config.webDist ?? DEFAULT_WEB_DIST),
  });

  await app.register(systemRoutes, { prefix: '/api' });
  await app.register(sessionRoutes, { prefix: '/api/auth' });
  await app.register(profileRoutes, { prefix: '/api/auth' });
  await app.register(avatarRoutes, { prefix: '/api/auth' });
  await app.register(accountRoutes, { prefix: '/api/auth' });
  await app.register(apiTokenRoutes, { prefix: '/api/auth' });
  await app.register(feedbackRoutes, { prefix: '/api/feedback' });
  await app.register(adminRoutes, { prefix: '/api/admin' });
  await app.register(adminJobRoutes, { prefix: '/api/admin' });
  await app.register(alignmentRoutes, { prefix: '/api/alignments' });
  await app.register(exportRoutes, { prefix: '/api/alignments' });
  await app.register(revisionRoutes, { prefix: '/api/alignments' });
  await app.register(shareManagementRoutes, { prefix: '/api/alignments' });
  await app.register(publicShareRoutes, { prefix: '/api/share' });
  await app.register(projectRoutes, { prefix: '/api/projects' });
  await app.register(batchRoutes, { prefix: '/api/projects' });
  await app.register(projectExportRoutes, { prefix: '/api/projects' });
  await app.register(lexiconRoutes, { prefix: '/api/lexicon' });
  await app.register(demoRoutes, { prefix: '/api/demos' });
  await app.register(adminDemoRoutes, { prefix: '/api/admin' });
  await app.register(languageRoutes, { prefix: '/api' });
  await app.register(sourceRoutes, { prefix: '/api/source' });
  await app.register(metricsRoute);
  await registerWebApp(app, config.webDist ?? DEFAULT_WEB_DIST);
  // last: Redis has had its chance to connect (signals.start) before its first probe
  app.addHook('onReady', async () => watch.start());

  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    databaseReady: DatabaseReady;
  }
}
