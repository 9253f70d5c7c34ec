// The application as a factory: tests call buildApp() and app.inject(); server.ts only listens. This file
// composes; each part is a plugin of its own (plugins/), in the order their hooks must run.
import { randomUUID } from 'node:crypto';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { LogController } from 'fastify';
import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { EngineFaultHook } from '@tazamun/aligner/host';
import { LIMITS } from '@tazamun/contracts/limits';
import type { Config } from './config.ts';
import { systemClock } from './clock.ts';
import type { Clock } from './clock.ts';
import type { AppDeps } from './context.ts';
import { selectOne } from './db/database.ts';
import type { Db } from './db/database.ts';
import { OutboxEmailSender } from './email/email-sender.ts';
import type { EmailSender } from './email/email-sender.ts';
import { TokenService } from './accounts/tokens.ts';
import type { JobConfig } from './jobs/job-config.ts';
import { Metrics } from './metrics/metrics.ts';
import { registerApiReference } from './plugins/api-reference.ts';
import { registerDatabase } from './plugins/database.ts';
import { frameworkErrors, registerErrorHandler } from './plugins/error-handler.ts';
import { registerSecurityHeaders, sendRequestId } from './plugins/http-headers.ts';
import { registerJobs } from './plugins/jobs.ts';
import { acceptEmptyJsonBodies } from './plugins/json-body.ts';
import { registerRateLimits } from './plugins/rate-limits.ts';
import { logRequests } from './plugins/request-log.ts';
import { registerWebApp } from './plugins/web-app.ts';
import {
  capConnectionsPerAddress,
  clientErrorHandler,
  serverTimeoutOptions,
} from './reliability/connection-limits.ts';
import { DependencyWatch } from './reliability/dependency-watch.ts';
import { refuseWritesWhenDiskLow } from './reliability/disk-space.ts';
import { rejectNulBytes } from './reliability/input-hygiene.ts';
import { serializeRequest } from './reliability/log-redaction.ts';
import { probeGateFor } from './routes/alignments/probe-gate.ts';
import { registerRoutes } from './routes/routes.ts';
import { UserFiles, createFileStore } from './storage/user-files.ts';

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

  const waitForDatabase = options.waitForDatabase ?? true;
  const db = await registerDatabase(app, config, options.db, waitForDatabase);
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
  sendRequestId(app);

  const metrics = new Metrics('api');
  app.decorate('metrics', metrics);
  metrics.watchDatabase(db, config.dataDir);
  logRequests(app, metrics);
  // one log line when the database or Redis goes, one when it is back (reliability/dependency-watch.ts)
  const watch = new DependencyWatch(app.log);
  watch.watch('database', () => selectOne(db));
  app.addHook('onClose', async () => watch.stop());

  // REDIS_URL: BullMQ dispatches the jobs, signals and rate-limit counters are shared by every process
  const redisUrl = options.redisUrl !== undefined ? options.redisUrl : config.redisUrl;
  registerJobs(app, {
    jobConfig,
    redisUrl,
    metrics,
    watch,
    waitForDatabase,
    engineFaultHook: options.engineFaultHook ?? null,
  });

  registerErrorHandler(app);
  acceptEmptyJsonBodies(app);
  rejectNulBytes(app);
  refuseWritesWhenDiskLow(app, config.dataDir, () => config.minFreeDiskBytes);
  await registerSecurityHeaders(app, config);
  await registerRateLimits(app, {
    redisUrl,
    emailsPerMinute: options.authEmailRateLimit ?? config.authEmailRateLimit,
    metrics,
  });
  await app.register(fastifyMultipart, { limits: { fileSize: LIMITS.audioMaxBytes, files: 1, fields: 20 } });
  const webDist = config.webDist ?? DEFAULT_WEB_DIST;
  await registerApiReference(app, webDist);
  await registerRoutes(app);
  await registerWebApp(app, webDist);
  // last: Redis has had its chance to connect (signals.start) before its first probe
  app.addHook('onReady', async () => watch.start());

  return app;
}
