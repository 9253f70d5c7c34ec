// `npm run worker`: runs queued jobs against the same DATA_DIR (and database) as the API, without
// serving HTTP. Several workers and API processes can share one database: jobs are claimed atomically
// and leased (see jobs/db-job-queue.ts). With REDIS_URL, BullMQ hands the jobs out instead of the
// database poll (jobs/bull-job-queue.ts), so workers may run on other machines than the API.
import pino from 'pino';
import { ConfigError, loadConfig } from './config.ts';
import { UserFiles, createFileStore } from './storage/user-files.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { createJobsRuntime } from './jobs/jobs-runtime.ts';
import { RedisSignals } from './queue/redis-signals.ts';
import { installProcessGuards } from './reliability/process-guards.ts';
import { Metrics } from './metrics/metrics.ts';
import { serveMetrics } from './metrics/metrics-server.ts';
import { retryWhileUnavailable } from './reliability/unavailable.ts';

// Start-up and fatal lines in the worker's JSON stream; replaced by the configured logger below.
let log = pino({ level: 'info', name: 'worker' });
installProcessGuards({
  error: (obj, msg) => log.error(obj, msg),
  fatal: (obj, msg) => log.fatal(obj, msg),
});

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env, {}, process.argv);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`[tazamun worker] ${err.message}`);
      process.exit(78);
    }
    throw err;
  }
  log = pino({ level: config.logLevel, name: 'worker' });
  const jobConfig = { ...config.jobs, concurrency: config.jobs.concurrency || 1 };
  const db = openDatabase(config.database);
  await retryWhileUnavailable('database', () => migrateToLatest(db), log);
  const { redisUrl } = config;
  const metrics = new Metrics('worker');
  const runtime = createJobsRuntime(
    db,
    new UserFiles(config.dataDir, createFileStore(config.dataDir, config.s3)),
    jobConfig,
    log,
    () => new Date(),
    redisUrl,
    metrics,
  );
  const signals = redisUrl ? new RedisSignals(redisUrl, runtime.queue, log) : null;
  if (signals) metrics.addRedis(() => ({ signals: signals.status }));
  const metricsServer = config.metricsPort
    ? await serveMetrics(metrics, {
        port: config.metricsPort,
        host: config.host,
        token: config.metricsToken,
      })
    : null;
  if (metricsServer) log.info({ port: config.metricsPort }, 'metrics served');
  await signals?.start();
  await runtime.queue.start();
  // The queue's timers are unref'd (they must not keep an API process alive); this one keeps the
  // worker process running until it is told to stop.
  const keepAlive = setInterval(() => undefined, 60_000);
  log.info(
    { concurrency: jobConfig.concurrency, worker: runtime.queue.workerId, queue: runtime.kind },
    'worker started',
  );
  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      log.info({ signal }, 'worker shutting down');
      clearInterval(keepAlive);
      metricsServer?.close();
      // running jobs may finish for JOB_DRAIN_TIMEOUT; the rest are handed back (queued again,
      // attempt returned) for another worker
      void runtime
        .close()
        .then(() => signals?.close())
        .then(() => db.destroy())
        .then(
          () => process.exit(0),
          (err: unknown) => {
            log.error({ err }, 'error during shutdown');
            process.exit(1);
          },
        );
    });
  }
}

main().catch((err: unknown) => {
  log.fatal({ err }, 'worker failed to start');
  process.exit(1);
});
